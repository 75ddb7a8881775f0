CREATE TABLE `oauth_client_assertion_jtis` (
	`project_id` text NOT NULL,
	`client_id` text NOT NULL,
	`jti` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `client_id`, `jti`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_client_assertion_jtis_expires` ON `oauth_client_assertion_jtis` (`expires_at`);