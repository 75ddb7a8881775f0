CREATE TABLE `data_vault_entries` (
	`project_id` text NOT NULL,
	`store_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`value_bytes` integer NOT NULL,
	`value_sealed` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `store_id`, `key_hash`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `data_vault_entries_project_bytes` ON `data_vault_entries` (`project_id`,`value_bytes`);