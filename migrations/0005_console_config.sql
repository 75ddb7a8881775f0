ALTER TABLE `projects` ADD `config_overrides` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `config_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `sessions_project_expires` ON `sessions` (`project_id`,`expires_at`);