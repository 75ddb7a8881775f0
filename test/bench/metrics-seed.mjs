// The metrics bench's data set as SQL: users, sign-in methods and events generated inside SQLite by
// recursive CTEs (`INSERT … SELECT` over a counter), so 1,000,000 rows cost one small file and no
// client-side loop. Deterministic: every "random" choice is a multiplicative hash of the row number.
//
//   users    N users, signed up over the last 365 days, 2 % anonymous, 60 % with a password,
//            10 % with OTP; 30 % of them have an OAuth account (github / google / microsoft) and
//            5 % a passkey.
//   events   M events over the last `days` days, uniform in time, for random users of the project:
//            45 % user.active, 25 % sign_in.succeeded (password 50 %, oauth 30 %, otp 15 %,
//            passkey 5 %), 8 % sign_in.failed, then user.updated, sign_out, user.created,
//            team_membership.created and password.changed. Countries from ten codes, skewed.

const DAY = 86_400_000;

/** One statement per table; `projectId` must name an existing project (events reference it). */
export function metricsSeedSql({ projectId, now, users = 100_000, events = 1_000_000, days = 90 }) {
  if (!/^[A-Za-z0-9-]+$/.test(projectId)) throw new Error(`unexpected project id ${projectId}`);
  const p = `'${projectId}'`;
  const userId = (expr) => `printf('bench-u-%07d', ${expr})`;
  const counter = (n) => `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})`;
  const countries = "USUSUSGBDEINFRBRJPCANLSE"; // 12 two-letter slots: US three times, then one each
  return [
    `${counter(users)}
INSERT INTO users (id, project_id, display_name, password_hash, signed_up_at, last_active_at, is_anonymous, otp_auth_enabled)
SELECT ${userId("i")}, ${p}, 'Bench user ' || i,
  CASE WHEN i % 5 < 3 THEN 'bench-not-a-hash' END,
  ${now} - (i * 2654435761) % ${365 * DAY},
  ${now} - ((i * 2654435761) % ${365 * DAY}) / 3,
  i % 50 = 0, i % 10 = 1
FROM n;`,
    `${counter(Math.floor(users * 0.3))}
INSERT INTO oauth_accounts (id, project_id, user_id, provider_config_id, provider_account_id, created_at)
SELECT 'bench-oa-' || i, ${p}, ${userId("i * 3 + 1")}, CASE i % 3 WHEN 0 THEN 'github' WHEN 1 THEN 'google' ELSE 'microsoft' END,
  'acct-' || i, ${now} - i * 1000
FROM n;`,
    `${counter(Math.floor(users * 0.05))}
INSERT INTO passkeys (id, project_id, user_id, credential_id, public_key, user_handle, created_at)
SELECT 'bench-pk-' || i, ${p}, ${userId("i * 20 + 2")}, 'cred-' || i, 'bench-key', 'handle-' || i, ${now} - i * 1000
FROM n;`,
    `${counter(events)}
, e(i, b, h) AS (SELECT i, (i * 31) % 100, (i * 2654435761) FROM n)
INSERT INTO events (id, project_id, type, created_at, actor_type, actor_id, user_id, ip, user_agent, country_code, data)
SELECT printf('bench-ev-%08d', i), ${p},
  CASE WHEN b < 45 THEN 'user.active' WHEN b < 70 THEN 'sign_in.succeeded' WHEN b < 78 THEN 'sign_in.failed'
       WHEN b < 86 THEN 'user.updated' WHEN b < 90 THEN 'sign_out' WHEN b < 94 THEN 'user.created'
       WHEN b < 97 THEN 'team_membership.created' ELSE 'password.changed' END,
  ${now} - h % ${days * DAY},
  'user', ${userId(`(h / 13) % ${users}`)}, ${userId(`(h / 13) % ${users}`)},
  '198.51.100.' || (i % 250), 'Mozilla/5.0 (bench)',
  substr('${countries}', 1 + 2 * ((h / 7) % 12), 2),
  CASE WHEN b >= 45 AND b < 78 THEN json_object('method',
    CASE WHEN (h / 11) % 20 < 10 THEN 'password' WHEN (h / 11) % 20 < 16 THEN 'oauth' WHEN (h / 11) % 20 < 19 THEN 'otp' ELSE 'passkey' END)
  END
FROM e;`,
  ];
}
