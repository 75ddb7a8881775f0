CREATE TABLE `oauth_authorization_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`client_id` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`scope` text NOT NULL,
	`state` text,
	`nonce` text,
	`code_challenge` text NOT NULL,
	`resource` text,
	`prompt` text,
	`max_age` integer,
	`team_requested` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`user_id` text,
	`team_id` text,
	`auth_time` integer,
	`amr` text,
	`acr` text,
	`code_hash` text,
	`grant_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_authorization_requests_code` ON `oauth_authorization_requests` (`code_hash`);--> statement-breakpoint
CREATE INDEX `oauth_authorization_requests_expires` ON `oauth_authorization_requests` (`expires_at`);--> statement-breakpoint
CREATE TABLE `oauth_clients` (
	`project_id` text NOT NULL,
	`client_id` text NOT NULL,
	`source` text NOT NULL,
	`name` text NOT NULL,
	`client_type` text NOT NULL,
	`token_endpoint_auth_method` text NOT NULL,
	`secret_hash` text,
	`secret_prefix` text,
	`redirect_uris` text NOT NULL,
	`allowed_scopes` text,
	`logo_uri` text,
	`client_uri` text,
	`policy_uri` text,
	`tos_uri` text,
	`jwks` text,
	`jwks_uri` text,
	`metadata_expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `client_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `oauth_consents` (
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`client_id` text NOT NULL,
	`scope` text NOT NULL,
	`team_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`, `client_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `oauth_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`client_id` text NOT NULL,
	`user_id` text NOT NULL,
	`team_id` text,
	`scope` text NOT NULL,
	`resource` text,
	`auth_time` integer NOT NULL,
	`amr` text,
	`acr` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	`revoked_reason` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_grants_user_client` ON `oauth_grants` (`project_id`,`user_id`,`client_id`);--> statement-breakpoint
CREATE TABLE `oauth_refresh_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`grant_id` text NOT NULL,
	`project_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`grant_id`) REFERENCES `oauth_grants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_refresh_tokens_grant` ON `oauth_refresh_tokens` (`grant_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `amr` text;