CREATE TABLE `cli_handouts` (
	`id` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cli_handouts_expires` ON `cli_handouts` (`expires_at`);