CREATE TABLE `daily_active_users` (
	`project_id` text NOT NULL,
	`day` integer NOT NULL,
	`users` integer NOT NULL,
	`anonymous_users` integer NOT NULL,
	PRIMARY KEY(`project_id`, `day`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
