/** The project's metrics on the wire (GET /internal/metrics), in the reference's shape plus `sign_ins_by_method`. */
import { z } from "zod";
import { userServerSchema } from "./wire";

/** One UTC day: `date` is YYYY-MM-DD; `activity` the day's count. */
export const metricsDataPointSchema = z.object({ date: z.string(), activity: z.number().int() });

export const metricsMethodCountSchema = z.object({ method: z.string(), count: z.number().int() });

export const metricsSchema = z.object({
  total_users: z.number().int(),
  /** Sign-ups per day, today and the 30 days before (31 points, oldest first). */
  daily_users: z.array(metricsDataPointSchema),
  /** Distinct users active per day, the same days. */
  daily_active_users: z.array(metricsDataPointSchema),
  /** ISO 3166 alpha-2 country → users whose latest located activity was there. */
  users_by_country: z.record(z.string(), z.number().int()),
  recently_registered: z.array(userServerSchema),
  recently_active: z.array(userServerSchema),
  /** Sign-in methods set up on accounts: password, otp, passkey and each OAuth provider id. */
  login_methods: z.array(metricsMethodCountSchema),
  /** Doorman: successful sign-ins of the same days by method (password, otp, oauth, passkey, anonymous, cli). */
  sign_ins_by_method: z.array(metricsMethodCountSchema),
});

export type MetricsJson = z.infer<typeof metricsSchema>;
