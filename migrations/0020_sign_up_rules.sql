CREATE TABLE `sign_up_rule_triggers` (
	`project_id` text NOT NULL,
	`rule_id` text NOT NULL,
	`action` text NOT NULL,
	`hour_start` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `rule_id`, `action`, `hour_start`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
