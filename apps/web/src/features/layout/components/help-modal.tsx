import { Anchor, Stack, Text, Title } from '@mantine/core';
import { AppModal } from '../../../shared/ui/app-modal';
import { getPartner } from '../../../shared/lib/partner';

export function buildHelpMailto(email: string, subject: string): string {
  return `mailto:${email}?subject=${encodeURIComponent(subject)}`;
}

/** docs/product.md Help: technical help by e-mail, a PDF reader note, and the admissions office. */
export function HelpModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const partner = getPartner();
  const phoneHref = `tel:${partner.admissionPhone.replace(/[^0-9+]/g, '')}`;
  return (
    <AppModal opened={opened} onClose={onClose} title="Help" size="s">
      <Stack gap="md">
        <section>
          <Title order={3} size="h5">
            Technical help
          </Title>
          <Text size="sm">
            For technical help with the online application, email {partner.helpPartnerName} at{' '}
            <Anchor href={buildHelpMailto(partner.helpEmail, partner.helpEmailSubject)}>
              {partner.helpEmail}
            </Anchor>
            . Please describe the problem and the browser you are using.
          </Text>
        </section>
        <section>
          <Title order={3} size="h5">
            Viewing PDF files
          </Title>
          <Text size="sm">
            Your application and some instructions open as PDF files. If they do not open, install a
            free PDF reader such as{' '}
            <Anchor href={partner.links.adobeReader} target="_blank" rel="noopener noreferrer">
              Adobe Acrobat Reader
            </Anchor>
            .
          </Text>
        </section>
        <section>
          <Title order={3} size="h5">
            Questions about admission
          </Title>
          <Text size="sm">
            For questions about admission, contact the {partner.admissionsOfficeName} at{' '}
            <Anchor href={`mailto:${partner.admissionEmail}`}>{partner.admissionEmail}</Anchor> or
            call <Anchor href={phoneHref}>{partner.admissionPhone}</Anchor>.
          </Text>
        </section>
      </Stack>
    </AppModal>
  );
}
