/**
 * One quickstart on the Connect page: install, the .env block (one Copy), each file with what it
 * does, the next steps, and the project's hosted pages.
 */
import { CodeBlock } from "./code-block";
import type { Quickstart } from "./quickstarts";

/** Inline `code` in the quickstarts' sentences, shown as code. */
function Sentence({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}

export function QuickstartView({ quickstart: q }: { quickstart: Quickstart }) {
  const step = (n: number) => `connect-${q.id}-step-${n}`;
  let n = 0;
  return (
    <section className="panel connect-quickstart" aria-labelledby={`connect-${q.id}-title`} data-testid={`quickstart-${q.id}`}>
      <h2 id={`connect-${q.id}-title`}>{q.title}</h2>
      <p className="muted">{q.summary}</p>
      <ol className="connect-steps">
        {q.install ? (
          <li aria-labelledby={step(++n)}>
            <h3 id={step(n)}>Install</h3>
            <p>
              <Sentence text={q.install.note} />
            </p>
            <CodeBlock name="Terminal" code={q.install.command} copyLabel="the install commands" />
          </li>
        ) : null}
        <li aria-labelledby={step(++n)}>
          <h3 id={step(n)}>
            Configure <code>{q.env.file}</code>
          </h3>
          <p>
            <Sentence text={q.env.note} />
          </p>
          <CodeBlock name={q.env.file} code={`${q.env.text}\n`} copyLabel={`the ${q.env.file} block`} testId="connect-env" />
        </li>
        <li aria-labelledby={step(++n)}>
          <h3 id={step(n)}>Add the code</h3>
          {q.files.map((file) => (
            <div key={file.path} className="connect-file">
              <p>{file.about}</p>
              <CodeBlock name={file.path} code={file.code} copyLabel={file.path} />
            </div>
          ))}
        </li>
        <li aria-labelledby={step(++n)}>
          <h3 id={step(n)}>Then</h3>
          <ul>
            {q.next.map((line) => (
              <li key={line}>
                <Sentence text={line} />
              </li>
            ))}
          </ul>
          <p>
            {q.hosted.text}{" "}
            <a href={q.hosted.url} target="_blank" rel="noreferrer">
              Open the hosted sign-in page
            </a>
          </p>
        </li>
      </ol>
    </section>
  );
}
