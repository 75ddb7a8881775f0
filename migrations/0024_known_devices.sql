CREATE TABLE `known_devices` (
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`device_hash` text NOT NULL,
	`ua_family` text NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`last_country_code` text,
	`last_latitude` real,
	`last_longitude` real,
	PRIMARY KEY(`project_id`, `user_id`, `device_hash`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `known_devices_user_seen_idx` ON `known_devices` (`project_id`,`user_id`,`last_seen_at`);