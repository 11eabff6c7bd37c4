import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER } from '@admissions/form';
import { renderApp } from './support/render-app';

describe('the frame', () => {
  it('shows the postal address and this year in the copyright', async () => {
    renderApp({ path: '/login' });
    const footer = await screen.findByRole('contentinfo');
    expect(footer).toHaveTextContent(DEFAULT_PARTNER.postalAddress.lines[1] ?? '');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()}`);
  });

  it('opens Help with the help e-mail, subject line, PDF note and admissions office', async () => {
    const { user } = renderApp({ path: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Help' }));
    const dialog = await screen.findByRole('dialog', { name: 'Help' });
    const mail = within(dialog).getByRole('link', { name: DEFAULT_PARTNER.helpEmail });
    expect(mail).toHaveAttribute(
      'href',
      `mailto:${DEFAULT_PARTNER.helpEmail}?subject=${encodeURIComponent(DEFAULT_PARTNER.helpEmailSubject)}`,
    );
    expect(dialog).toHaveTextContent(/PDF reader/);
    expect(dialog).toHaveTextContent(DEFAULT_PARTNER.admissionPhone);
    expect(dialog).toHaveTextContent(DEFAULT_PARTNER.admissionsOfficeName);
  });

  it('opens Privacy with the policy, cookie controls, analytics opt-out and contact', async () => {
    const { user } = renderApp({ path: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Privacy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Privacy' });
    expect(within(dialog).getByRole('link', { name: 'privacy policy' })).toHaveAttribute(
      'href',
      DEFAULT_PARTNER.links.privacyPolicy,
    );
    expect(dialog).toHaveTextContent(/cookie/i);
    expect(within(dialog).getByRole('link', { name: 'Google Chrome' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent(/opt out of analytics cookies/i);
    expect(dialog).toHaveTextContent(DEFAULT_PARTNER.admissionEmail);
  });
});
