/** The "world table": users by the country of their latest located activity, largest first, with shares. */

import { formatCount } from "../../lib/format";
import { DataTable } from "../data-table";
import type { ChartState } from "./chart-panel";

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function CountryTable(props: { state: ChartState<Record<string, number>> }) {
  const s = props.state;
  const rows = s.status === "ready" ? Object.entries(s.data).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])) : [];
  const total = rows.reduce((n, [, count]) => n + count, 0);
  return (
    <section className="panel metric-panel" aria-labelledby="countries-title" data-chart="countries" aria-busy={s.status === "loading"}>
      <h2 id="countries-title">Users by country</h2>
      {s.status === "loading" ? (
        <p className="muted metric-placeholder" role="status">
          Loading users by country…
        </p>
      ) : s.status === "error" ? (
        <p className="alert" role="alert">
          {s.message}
        </p>
      ) : rows.length === 0 ? (
        <p className="muted metric-placeholder metric-empty">No located activity yet: countries appear once users sign in.</p>
      ) : (
        <DataTable
          className="country-table"
          caption="Each user counts once, in the country of their latest sign-in or session refresh."
          captionClassName="muted"
        >
          <thead>
            <tr>
              <th scope="col">Country</th>
              <th scope="col" className="num">
                Users
              </th>
              <th scope="col" className="num">
                Share
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([code, count]) => {
              const share = total ? (count / total) * 100 : 0;
              return (
                <tr key={code}>
                  <th scope="row">
                    {countryName(code)} <span className="muted">({code})</span>
                  </th>
                  <td className="num">{formatCount(count)}</td>
                  <td className="num">
                    <span className="share-bar" aria-hidden="true" style={{ width: `${Math.max(2, share)}%` }} />
                    {share.toFixed(share < 10 ? 1 : 0)} %
                  </td>
                </tr>
              );
            })}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}
