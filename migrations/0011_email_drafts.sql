CREATE TABLE `email_drafts` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`display_name` text NOT NULL,
	`tsx_source` text NOT NULL,
	`theme_mode` text NOT NULL,
	`theme_id` text,
	`template_variables` text,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_drafts_project_updated` ON `email_drafts` (`project_id`,`updated_at`);