-- A capture identity's accepted facts only move forward (issue #16): a passing admission that read an older row
-- (a concurrent pass got there first) aborts its whole batch instead of moving the App Attest counter, OS, patch
-- level, app version or evidence time backwards, or overwriting the version another admission created.
CREATE TRIGGER capture_identity_forward_only BEFORE UPDATE ON capture_identities
  WHEN (NEW.counter < OLD.counter)
    OR (OLD.attestation_kind = 'app_attest' AND NEW.counter = OLD.counter AND NEW.last_attested_at != OLD.last_attested_at)
    OR (NEW.os_version < OLD.os_version)
    OR (NEW.os_patch_level < OLD.os_patch_level)
    OR (NEW.app_version < OLD.app_version)
    OR (NEW.last_evidence_issued_at < OLD.last_evidence_issued_at)
    OR (NEW.identity_version_id != OLD.identity_version_id AND NEW.identity_version != OLD.identity_version + 1)
BEGIN
  SELECT RAISE(ABORT, 'svc_capture_identity_moved');
END;
