CREATE TABLE `saml_used_assertions` (
	`connection_id` text NOT NULL,
	`assertion_id` text NOT NULL,
	`project_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`connection_id`, `assertion_id`),
	FOREIGN KEY (`connection_id`) REFERENCES `sso_connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saml_used_assertions_expires` ON `saml_used_assertions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `scim_group_members` (
	`group_id` text NOT NULL,
	`identity_id` text NOT NULL,
	PRIMARY KEY(`group_id`, `identity_id`),
	FOREIGN KEY (`group_id`) REFERENCES `scim_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`identity_id`) REFERENCES `sso_identities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `scim_group_members_identity` ON `scim_group_members` (`identity_id`);--> statement-breakpoint
CREATE TABLE `scim_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`display_name` text NOT NULL,
	`external_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`connection_id`) REFERENCES `sso_connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scim_groups_display_name` ON `scim_groups` (`connection_id`,`display_name`);--> statement-breakpoint
CREATE TABLE `sso_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`team_id` text NOT NULL,
	`protocol` text NOT NULL,
	`display_name` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`config` text NOT NULL,
	`sp_private_key_sealed` text,
	`sp_certificate` text,
	`allow_idp_initiated` integer DEFAULT false NOT NULL,
	`scim_token_hash` text,
	`scim_token_prefix` text,
	`scim_group_mapping` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sso_connections_team` ON `sso_connections` (`project_id`,`team_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sso_connections_scim_token` ON `sso_connections` (`scim_token_hash`);--> statement-breakpoint
CREATE TABLE `sso_domains` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`team_id` text NOT NULL,
	`connection_id` text,
	`domain` text NOT NULL,
	`verification_token` text NOT NULL,
	`status` text NOT NULL,
	`verified_at` integer,
	`checked_at` integer,
	`enforce_sso` integer DEFAULT false NOT NULL,
	`auto_join` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`connection_id`) REFERENCES `sso_connections`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_domains_team_domain` ON `sso_domains` (`team_id`,`domain`);--> statement-breakpoint
CREATE UNIQUE INDEX `sso_domains_verified` ON `sso_domains` (`project_id`,`domain`) WHERE status = 'verified';--> statement-breakpoint
CREATE TABLE `sso_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`user_id` text NOT NULL,
	`subject` text,
	`user_name` text,
	`external_id` text,
	`active` integer DEFAULT true NOT NULL,
	`scim_resource` text,
	`version` integer DEFAULT 1 NOT NULL,
	`last_sign_in_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`connection_id`) REFERENCES `sso_connections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_identities_subject` ON `sso_identities` (`connection_id`,`subject`);--> statement-breakpoint
CREATE UNIQUE INDEX `sso_identities_user_name` ON `sso_identities` (`connection_id`,`user_name`);--> statement-breakpoint
CREATE UNIQUE INDEX `sso_identities_user` ON `sso_identities` (`connection_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `sso_identities_external_id` ON `sso_identities` (`connection_id`,`external_id`);