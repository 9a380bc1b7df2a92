ALTER TABLE `api_keys` ADD `restrictions` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `signing_profile` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `successor_key_id` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `rotation_deadline` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `predecessor_key_id` text;