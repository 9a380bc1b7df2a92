-- Wallet invariants (issue #17), enforced by the database inside whatever batch admits or ends work:
--  * a reservation is admitted only into an enabled wallet whose balance minus reserved covers it, and within the
--    monthly spend limit; otherwise the whole batch aborts (the job insert beside it included);
--  * a reservation moves only held → settled or held → released, and its amount never changes;
--  * reserved, balance and month spend follow every reservation transition and every wallet transaction.
CREATE TRIGGER wallet_reservation_admit BEFORE INSERT ON wallet_reservations
BEGIN
  SELECT RAISE(ABORT, 'svc_wallet_reservation_not_held') WHERE NEW.state != 'held' OR NEW.amount_micros < 0;
  SELECT RAISE(ABORT, 'svc_wallet_disabled')
    WHERE NOT EXISTS (SELECT 1 FROM wallets WHERE tenant_id = NEW.tenant_id AND enabled = 1);
  SELECT RAISE(ABORT, 'svc_wallet_insufficient')
    WHERE (SELECT balance_micros - reserved_micros FROM wallets WHERE tenant_id = NEW.tenant_id) < NEW.amount_micros;
  SELECT RAISE(ABORT, 'svc_wallet_monthly_limit')
    WHERE (SELECT monthly_spend_limit_micros IS NOT NULL
             AND (CASE WHEN spend_month = strftime('%Y-%m', 'now') THEN month_spend_micros ELSE 0 END)
                 + reserved_micros + NEW.amount_micros > monthly_spend_limit_micros
           FROM wallets WHERE tenant_id = NEW.tenant_id);
END;
--> statement-breakpoint
CREATE TRIGGER wallet_reservation_hold AFTER INSERT ON wallet_reservations
BEGIN
  UPDATE wallets SET reserved_micros = reserved_micros + NEW.amount_micros WHERE tenant_id = NEW.tenant_id;
END;
--> statement-breakpoint
CREATE TRIGGER wallet_reservation_final BEFORE UPDATE ON wallet_reservations
  WHEN OLD.state != 'held' OR NEW.amount_micros != OLD.amount_micros OR NEW.tenant_id != OLD.tenant_id OR NEW.state = 'held'
BEGIN
  SELECT RAISE(ABORT, 'svc_wallet_reservation_final');
END;
--> statement-breakpoint
CREATE TRIGGER wallet_reservation_settle AFTER UPDATE OF state ON wallet_reservations
  WHEN OLD.state = 'held' AND NEW.state = 'settled'
BEGIN
  UPDATE wallets SET
    reserved_micros = reserved_micros - NEW.amount_micros,
    balance_micros = balance_micros - NEW.amount_micros,
    month_spend_micros = CASE WHEN spend_month = strftime('%Y-%m', NEW.ended_at / 1000, 'unixepoch')
                              THEN month_spend_micros + NEW.amount_micros ELSE NEW.amount_micros END,
    spend_month = strftime('%Y-%m', NEW.ended_at / 1000, 'unixepoch'),
    updated_at = NEW.ended_at
  WHERE tenant_id = NEW.tenant_id;
END;
--> statement-breakpoint
CREATE TRIGGER wallet_reservation_release AFTER UPDATE OF state ON wallet_reservations
  WHEN OLD.state = 'held' AND NEW.state = 'released'
BEGIN
  UPDATE wallets SET reserved_micros = reserved_micros - NEW.amount_micros, updated_at = NEW.ended_at
  WHERE tenant_id = NEW.tenant_id;
END;
--> statement-breakpoint
CREATE TRIGGER wallet_transaction_apply AFTER INSERT ON wallet_transactions
BEGIN
  SELECT RAISE(ABORT, 'svc_wallet_missing') WHERE NOT EXISTS (SELECT 1 FROM wallets WHERE tenant_id = NEW.tenant_id);
  UPDATE wallets SET balance_micros = balance_micros + NEW.amount_micros, updated_at = NEW.created_at
  WHERE tenant_id = NEW.tenant_id;
END;
--> statement-breakpoint
CREATE TRIGGER wallet_transaction_append_only BEFORE UPDATE ON wallet_transactions
BEGIN
  SELECT RAISE(ABORT, 'svc_wallet_transaction_append_only');
END;
