ALTER TABLE `idp_events` ADD `audit_claimed_at` integer;--> statement-breakpoint
CREATE TABLE `idp_pending_subjects` (
	`issuer` text NOT NULL,
	`subject` text NOT NULL,
	`status` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`issuer`, `subject`)
);
