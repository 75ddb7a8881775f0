CREATE TABLE `payment_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`purchase_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`amount_usd_cents` integer NOT NULL,
	`stripe_refund_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_refunds_purchase` ON `payment_refunds` (`project_id`,`purchase_id`);--> statement-breakpoint
CREATE INDEX `payment_refunds_created` ON `payment_refunds` (`project_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `stripe_invoices` (
	`id` text NOT NULL,
	`project_id` text NOT NULL,
	`customer_type` text NOT NULL,
	`customer_id` text NOT NULL,
	`stripe_subscription_id` text,
	`is_creation` integer DEFAULT false NOT NULL,
	`status` text,
	`amount_total` integer,
	`currency` text,
	`hosted_invoice_url` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stripe_invoices_customer` ON `stripe_invoices` (`project_id`,`customer_type`,`customer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `stripe_invoices_project` ON `stripe_invoices` (`project_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `purchases` ADD `refunded_quantity` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `projects_stripe_account` ON `projects` (`stripe_account_id`);