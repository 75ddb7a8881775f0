-- The notification categories take the reference's ids (wire compatibility: SDKs and apps may name
-- them by id). Before this, Transactional used the id the reference gives Marketing, and Marketing
-- had an id of its own. Transactional first, so the two renames never collide on the primary key.
UPDATE `notification_preferences` SET `category_id` = '7bb82d33-2f54-4a3d-9d23-82739e0d66ef' WHERE `category_id` = '4f6f8873-3d04-46bd-8bef-18338b1a1b4c';--> statement-breakpoint
UPDATE `notification_preferences` SET `category_id` = '4f6f8873-3d04-46bd-8bef-18338b1a1b4c' WHERE `category_id` = '2cd9d2a4-9c83-4bd8-a1cc-0b3c2f2a0f7e';
