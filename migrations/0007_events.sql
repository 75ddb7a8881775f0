CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`type` text NOT NULL,
	`created_at` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`user_id` text,
	`team_id` text,
	`ip` text,
	`user_agent` text,
	`country_code` text,
	`data` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_project_time` ON `events` (`project_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `events_project_user_time` ON `events` (`project_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `events_project_type_time` ON `events` (`project_id`,`type`,`created_at`);