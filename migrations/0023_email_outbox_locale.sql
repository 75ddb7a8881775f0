ALTER TABLE `email_outbox` ADD `locale` text;
