CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`type` text NOT NULL,
	`user_id` text,
	`team_id` text,
	`description` text DEFAULT '' NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`key_hash` text NOT NULL,
	`last_four` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user` ON `api_keys` (`project_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `api_keys_team` ON `api_keys` (`project_id`,`team_id`);--> statement-breakpoint
CREATE TABLE `oauth_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`provider_config_id` text NOT NULL,
	`provider_account_id` text NOT NULL,
	`email` text,
	`allow_sign_in` integer DEFAULT true NOT NULL,
	`allow_connected_accounts` integer DEFAULT true NOT NULL,
	`access_token_sealed` text,
	`refresh_token_sealed` text,
	`access_token_expires_at` integer,
	`scopes` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_accounts_user` ON `oauth_accounts` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_accounts_user_provider_account` ON `oauth_accounts` (`user_id`,`provider_config_id`,`provider_account_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_accounts_sign_in_unique` ON `oauth_accounts` (`project_id`,`provider_config_id`,`provider_account_id`) WHERE allow_sign_in = 1;--> statement-breakpoint
CREATE TABLE `passkeys` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`transports` text,
	`user_handle` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `passkeys_user` ON `passkeys` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `passkeys_credential` ON `passkeys` (`project_id`,`credential_id`);--> statement-breakpoint
CREATE TABLE `permission_definitions` (
	`project_id` text NOT NULL,
	`id` text NOT NULL,
	`scope` text NOT NULL,
	`description` text,
	`contained_permission_ids` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `project_permissions` (
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`permission_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `permission_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `team_permissions` (
	`project_id` text NOT NULL,
	`team_id` text NOT NULL,
	`user_id` text NOT NULL,
	`permission_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `user_id`, `permission_id`),
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `team_permissions_user` ON `team_permissions` (`user_id`);--> statement-breakpoint
CREATE INDEX `verification_codes_purpose` ON `verification_codes` (`project_id`,`purpose`,`expires_at`);--> statement-breakpoint
-- The default team permission definitions every project starts with (new projects get them at creation).
INSERT OR IGNORE INTO `permission_definitions` (`project_id`, `id`, `scope`, `description`, `contained_permission_ids`, `created_at`)
SELECT `id`, 'team_admin', 'team', 'Default permission for team creators', '["$update_team","$delete_team","$read_members","$remove_members","$invite_members","$manage_api_keys"]', `created_at` FROM `projects`;--> statement-breakpoint
INSERT OR IGNORE INTO `permission_definitions` (`project_id`, `id`, `scope`, `description`, `contained_permission_ids`, `created_at`)
SELECT `id`, 'team_member', 'team', 'Default permission for team members', '["$read_members","$invite_members"]', `created_at` FROM `projects`;
