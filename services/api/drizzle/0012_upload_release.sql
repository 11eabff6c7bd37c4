-- A link that stopped being in progress without starting a conversion (a newer link for the
-- same question replaced it, or its file was refused) no longer counts against the applicant.
ALTER TABLE "document_uploads" ADD COLUMN "released_at" timestamp with time zone;
