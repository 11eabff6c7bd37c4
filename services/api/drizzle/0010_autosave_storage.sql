-- Hand-written (drizzle-kit models neither column storage nor triggers); the same SQL runs on
-- PGlite and PostgreSQL. Every autosave rewrites the whole answer set (a complete application is
-- ~20 kB of jsonb): stored out of line without compression, a save no longer decompresses the old
-- value and compresses the new one, which on PGlite runs in WebAssembly on the request thread.
-- Rows keep their compressed value until their next save.
ALTER TABLE "applications" ALTER COLUMN "answer" SET STORAGE EXTERNAL;--> statement-breakpoint
-- The trigger of 0008, reading the old answers once (each OLD.answer->'…' fetched the stored
-- value again, four times per save) and folding the sort name only when the first or last name
-- changed (it is made of those two; staff_fold is most of the trigger's cost).
CREATE OR REPLACE FUNCTION "applications_staff_text"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_answer jsonb;
  new_answer jsonb;
  sort_changed boolean := true;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    old_answer := OLD.answer;
    new_answer := NEW.answer;
    sort_changed := new_answer->'first_name' IS DISTINCT FROM old_answer->'first_name'
      OR new_answer->'last_name' IS DISTINCT FROM old_answer->'last_name';
    IF NOT sort_changed
      AND new_answer->'middle_name' IS NOT DISTINCT FROM old_answer->'middle_name'
      AND new_answer->'preferred_name' IS NOT DISTINCT FROM old_answer->'preferred_name' THEN
      RETURN NEW;
    END IF;
  END IF;
  NEW.staff_search_text := staff_fold(concat_ws(' ', NEW.answer->>'first_name',
    NEW.answer->>'middle_name', NEW.answer->>'last_name', NEW.answer->>'preferred_name',
    (SELECT u.email FROM users u WHERE u.id = NEW.user_id)));
  IF sort_changed THEN
    NEW.staff_sort_name := staff_fold(concat_ws(' ', NEW.answer->>'last_name', NEW.answer->>'first_name'));
  END IF;
  RETURN NEW;
END
$$;
