-- The internal project is called Doorman on every page and in its emails (issue 12); a database seeded
-- before that still holds the old name. Only that exact old name changes: an owner's own rename stays.
UPDATE `projects` SET `display_name` = 'Doorman' WHERE `id` = 'internal' AND `display_name` = 'Stack Dashboard';
