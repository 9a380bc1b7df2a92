ALTER TABLE `idp_events` ADD `audit_claimed_at` integer;
