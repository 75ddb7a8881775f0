CREATE INDEX `events_active_by_time` ON `events` (`project_id`,`created_at`,`user_id`) WHERE type = 'user.active';--> statement-breakpoint
CREATE INDEX `events_active_by_user` ON `events` (`project_id`,`user_id`,`created_at`,`country_code`) WHERE type = 'user.active';--> statement-breakpoint
CREATE INDEX `events_sign_in_by_time` ON `events` (`project_id`,`created_at`,`data`) WHERE type = 'sign_in.succeeded';--> statement-breakpoint
CREATE INDEX `users_project_last_active` ON `users` (`project_id`,`last_active_at`);--> statement-breakpoint
CREATE INDEX `users_project_anonymous` ON `users` (`project_id`,`id`) WHERE is_anonymous = 1;--> statement-breakpoint
CREATE INDEX `users_project_password` ON `users` (`project_id`) WHERE password_hash IS NOT NULL;--> statement-breakpoint
CREATE INDEX `users_project_otp` ON `users` (`project_id`) WHERE otp_auth_enabled = 1;