/** Sign-ins by method over the window, as horizontal bars (one per method). */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount } from "../../lib/format";
import { ChartPanel, type ChartState } from "./chart-panel";
import { ClientOnly } from "./client-only";

export type MethodCount = { method: string; count: number };

const LABELS: Record<string, string> = {
  password: "Password",
  otp: "Magic link / OTP",
  oauth: "OAuth",
  passkey: "Passkey",
  anonymous: "Anonymous",
  cli: "CLI",
};
const label = (method: string) => LABELS[method] ?? method;

export function MethodsChart(props: { state: ChartState<MethodCount[]>; color: string }) {
  return (
    <ChartPanel
      id="sign-in-methods"
      title="Sign-ins by method"
      state={props.state}
      emptyText="No sign-ins in the last 30 days."
      isEmpty={(rows) => rows.length === 0}
      summary={(rows) => `${formatCount(rows.reduce((n, r) => n + r.count, 0))} successful sign-ins over the same days.`}
      chart={(rows) => (
        <ClientOnly fallback={<div className="metric-chart-fallback" />}>
          {() => (
            <ResponsiveContainer width="100%" height={Math.max(120, rows.length * 40)}>
              <BarChart
                data={rows.map((r) => ({ ...r, label: label(r.method) }))}
                layout="vertical"
                margin={{ top: 0, right: 16, bottom: 0, left: 8 }}
              >
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" allowDecimals={false} fontSize={12} />
                <YAxis type="category" dataKey="label" width={120} fontSize={12} />
                <Tooltip formatter={(v) => [formatCount(Number(v)), "Sign-ins"]} />
                <Bar dataKey="count" fill={props.color} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </ClientOnly>
      )}
      table={(rows) => (
        <table>
          <caption>Sign-ins by method</caption>
          <thead>
            <tr>
              <th scope="col">Method</th>
              <th scope="col">Sign-ins</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.method}>
                <td>{label(r.method)}</td>
                <td>{r.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}
