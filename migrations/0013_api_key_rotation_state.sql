ALTER TABLE `api_keys` ADD `rotation_state` text;--> statement-breakpoint
-- Rotations begun before the state machine: a revoked predecessor was completed; a live one is still overlapping.
UPDATE `api_keys` SET `rotation_state` = CASE WHEN `status` = 'revoked' THEN 'completed' ELSE 'overlapping' END
WHERE `successor_key_id` IS NOT NULL AND `rotation_deadline` IS NOT NULL;
