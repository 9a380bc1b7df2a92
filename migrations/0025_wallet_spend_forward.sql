-- Month spend only rolls forward (issue #17 review): settlements carry each runner's own clock and can commit out of
-- order around midnight; a settlement of an earlier month than the wallet counts no longer resets it to that month.
DROP TRIGGER wallet_reservation_settle;
--> statement-breakpoint
CREATE TRIGGER wallet_reservation_settle AFTER UPDATE OF state ON wallet_reservations
  WHEN OLD.state = 'held' AND NEW.state = 'settled'
BEGIN
  UPDATE wallets SET
    reserved_micros = reserved_micros - NEW.amount_micros,
    balance_micros = balance_micros - NEW.amount_micros,
    month_spend_micros = CASE
      WHEN spend_month = strftime('%Y-%m', NEW.ended_at / 1000, 'unixepoch') THEN month_spend_micros + NEW.amount_micros
      WHEN spend_month < strftime('%Y-%m', NEW.ended_at / 1000, 'unixepoch') THEN NEW.amount_micros
      ELSE month_spend_micros END,
    spend_month = max(spend_month, strftime('%Y-%m', NEW.ended_at / 1000, 'unixepoch')),
    updated_at = NEW.ended_at
  WHERE tenant_id = NEW.tenant_id;
END;
