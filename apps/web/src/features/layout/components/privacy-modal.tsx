import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { AppModal } from '../../../shared/ui/app-modal';
import { getPartner } from '../../../shared/lib/partner';

const BROWSER_COOKIE_HELP = [
  { name: 'Google Chrome', href: 'https://support.google.com/chrome/answer/95647' },
  {
    name: 'Mozilla Firefox',
    href: 'https://support.mozilla.org/kb/enhanced-tracking-protection-firefox-desktop',
  },
  { name: 'Apple Safari', href: 'https://support.apple.com/guide/safari/manage-cookies-sfri11471' },
  {
    name: 'Microsoft Edge',
    href: 'https://support.microsoft.com/microsoft-edge/delete-cookies-in-microsoft-edge-63947406-40ac-c3b8-57b9-2a946a29ae09',
  },
];

const ANALYTICS_OPT_OUT = 'https://tools.google.com/dlpage/gaoptout';

/** docs/product.md Privacy: policy and cookie notice, browser controls, analytics opt-out, contact. */
export function PrivacyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const partner = getPartner();
  const external = { target: '_blank', rel: 'noopener noreferrer' } as const;
  return (
    <AppModal opened={opened} onClose={onClose} title="Privacy" size="s">
      <Stack gap="md">
        <section>
          <Title order={3} size="h5">
            Privacy policy and cookie notice
          </Title>
          <Text size="sm">
            {partner.schoolName} uses the information in your application only to consider you for
            admission and to contact you about it. Read the full{' '}
            <Anchor href={partner.links.privacyPolicy} {...external}>
              privacy policy
            </Anchor>
            . This site uses cookies that are needed to keep you logged in, and analytics cookies
            that help us understand how the application is used.
          </Text>
        </section>
        <section>
          <Title order={3} size="h5">
            Controlling cookies in your browser
          </Title>
          <Text size="sm">You can block or delete cookies in your browser settings:</Text>
          <List size="sm">
            {BROWSER_COOKIE_HELP.map((browser) => (
              <List.Item key={browser.name}>
                <Anchor href={browser.href} {...external}>
                  {browser.name}
                </Anchor>
              </List.Item>
            ))}
          </List>
          <Text size="sm">Blocking the login cookies means you will not be able to log in.</Text>
        </section>
        <section>
          <Title order={3} size="h5">
            Opting out of analytics cookies
          </Title>
          <Text size="sm">
            To opt out of analytics cookies on every site, install the{' '}
            <Anchor href={ANALYTICS_OPT_OUT} {...external}>
              Google Analytics opt-out browser add-on
            </Anchor>
            .
          </Text>
        </section>
        <section>
          <Title order={3} size="h5">
            Contact us
          </Title>
          <Text size="sm">
            Questions about your information? Contact the {partner.admissionsOfficeName} at{' '}
            <Anchor href={`mailto:${partner.admissionEmail}`}>{partner.admissionEmail}</Anchor> or{' '}
            {partner.admissionPhone}.
          </Text>
        </section>
      </Stack>
    </AppModal>
  );
}
