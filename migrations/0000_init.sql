CREATE TABLE `api_key_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`publishable_key_hash` text,
	`secret_key_hash` text,
	`admin_key_hash` text,
	`publishable_last_four` text,
	`secret_last_four` text,
	`admin_last_four` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `api_key_sets_project` ON `api_key_sets` (`project_id`);--> statement-breakpoint
CREATE INDEX `api_key_sets_publishable` ON `api_key_sets` (`publishable_key_hash`);--> statement-breakpoint
CREATE INDEX `api_key_sets_secret` ON `api_key_sets` (`secret_key_hash`);--> statement-breakpoint
CREATE INDEX `api_key_sets_admin` ON `api_key_sets` (`admin_key_hash`);--> statement-breakpoint
CREATE TABLE `contact_channels` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`type` text DEFAULT 'email' NOT NULL,
	`value` text NOT NULL,
	`is_verified` integer DEFAULT false NOT NULL,
	`is_primary` integer DEFAULT false NOT NULL,
	`used_for_auth` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_channels_user` ON `contact_channels` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `contact_channels_user_value` ON `contact_channels` (`user_id`,`type`,`value`);--> statement-breakpoint
CREATE UNIQUE INDEX `contact_channels_auth_unique` ON `contact_channels` (`project_id`,`type`,`value`) WHERE used_for_auth = 1;--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`display_name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`is_production_mode` integer DEFAULT false NOT NULL,
	`logo_url` text,
	`full_logo_url` text,
	`owner_team_id` text,
	`onboarding_status` text DEFAULT 'completed' NOT NULL,
	`config` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `retired_refresh_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`project_id` text NOT NULL,
	`retired_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `retired_refresh_tokens_session` ON `retired_refresh_tokens` (`session_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`refresh_token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	`is_impersonation` integer DEFAULT false NOT NULL,
	`last_ip_info` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_refresh_token` ON `sessions` (`refresh_token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `team_members` (
	`project_id` text NOT NULL,
	`team_id` text NOT NULL,
	`user_id` text NOT NULL,
	`display_name` text,
	`profile_image_url` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `user_id`),
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `team_members_user` ON `team_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `teams` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`display_name` text NOT NULL,
	`profile_image_url` text,
	`client_metadata` text,
	`client_read_only_metadata` text,
	`server_metadata` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `teams_project` ON `teams` (`project_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`display_name` text,
	`profile_image_url` text,
	`password_hash` text,
	`signed_up_at` integer NOT NULL,
	`last_active_at` integer NOT NULL,
	`client_metadata` text,
	`client_read_only_metadata` text,
	`server_metadata` text,
	`selected_team_id` text,
	`is_anonymous` integer DEFAULT false NOT NULL,
	`totp_secret` text,
	`otp_auth_enabled` integer DEFAULT false NOT NULL,
	`passkey_auth_enabled` integer DEFAULT false NOT NULL,
	`restricted_by_admin` integer DEFAULT false NOT NULL,
	`restricted_by_admin_reason` text,
	`restricted_by_admin_private_details` text,
	`country_code` text,
	`risk_scores` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `users_project_signed_up` ON `users` (`project_id`,`signed_up_at`,`id`);