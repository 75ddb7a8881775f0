CREATE TABLE `item_quantity_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`change_id` text NOT NULL,
	`project_id` text NOT NULL,
	`customer_type` text NOT NULL,
	`customer_id` text NOT NULL,
	`item_id` text NOT NULL,
	`delta` integer NOT NULL,
	`expires_at` integer,
	`grant_key` text,
	`description` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `item_quantity_changes_customer_item` ON `item_quantity_changes` (`project_id`,`customer_type`,`customer_id`,`item_id`,`seq`);--> statement-breakpoint
CREATE TABLE `purchase_codes` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`customer_type` text NOT NULL,
	`customer_id` text NOT NULL,
	`offer_id` text,
	`offer` text NOT NULL,
	`return_url` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`purchase_id` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `purchases` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`customer_type` text NOT NULL,
	`customer_id` text NOT NULL,
	`offer_id` text,
	`offer` text NOT NULL,
	`price_id` text,
	`quantity` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`external_id` text,
	`stripe_subscription_id` text,
	`stripe_payment_intent_id` text,
	`created_at` integer NOT NULL,
	`current_period_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `purchases_customer` ON `purchases` (`project_id`,`customer_type`,`customer_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `purchases_external_id` ON `purchases` (`project_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `purchases_stripe_subscription` ON `purchases` (`stripe_subscription_id`);--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`project_id` text,
	`type` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `projects` ADD `stripe_account_id` text;