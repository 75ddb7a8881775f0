CREATE TABLE `rate_limit_counters` (
	`bucket` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_limit_counters_expires` ON `rate_limit_counters` (`expires_at`);