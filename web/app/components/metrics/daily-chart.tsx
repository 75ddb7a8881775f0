/** A per-day series (sign-ups, daily active users) as a bar chart over the window's UTC days. */

import type { MetricsDataPoint } from "@doorman/sdk";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount, formatUtcDay } from "../../lib/format";
import { ChartPanel, type ChartState } from "./chart-panel";
import { ClientOnly } from "./client-only";

function summary(points: MetricsDataPoint[], noun: string): string {
  const total = points.reduce((sum, p) => sum + p.activity, 0);
  const peak = points.reduce((best, p) => (p.activity > best.activity ? p : best), points[0] ?? { date: "", activity: 0 });
  return `${formatCount(total)} ${noun} over ${points.length} days; busiest day ${formatUtcDay(peak.date)} (${formatCount(peak.activity)}). Days are UTC.`;
}

export function DailyChart(props: {
  id: string;
  title: string;
  /** Plural noun for the summary line ("sign-ups", "active-user days"). */
  noun: string;
  emptyText: string;
  state: ChartState<MetricsDataPoint[]>;
  color: string;
}) {
  return (
    <ChartPanel
      id={props.id}
      title={props.title}
      state={props.state}
      emptyText={props.emptyText}
      isEmpty={(points) => points.every((p) => p.activity === 0)}
      summary={(points) => summary(points, props.noun)}
      chart={(points) => (
        <ClientOnly fallback={<div className="metric-chart-fallback" />}>
          {() => (
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="date" tickFormatter={formatUtcDay} minTickGap={24} fontSize={12} />
                <YAxis allowDecimals={false} fontSize={12} />
                <Tooltip labelFormatter={(d) => formatUtcDay(String(d))} formatter={(v) => [formatCount(Number(v)), props.title]} />
                <Bar dataKey="activity" fill={props.color} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </ClientOnly>
      )}
      table={(points) => (
        <table>
          <caption>{props.title} per UTC day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{props.title}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.date}>
                <td>{p.date}</td>
                <td>{p.activity}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}
