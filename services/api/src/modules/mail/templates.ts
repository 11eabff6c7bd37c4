import type { PartnerConfig } from '@admissions/form';
import type { MailMessage } from '../../platform/mail/mailer';

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function render(to: string, subject: string, paragraphs: string[]): MailMessage {
  return {
    to,
    subject,
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n'),
  };
}

/** "23 November 2026 at 22:30 UTC": when a code sent again stops working. */
function formatExpiry(at: Date): string {
  const date = at.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return `${date} at ${at.toISOString().slice(11, 16)} UTC`;
}

/** `sentBefore`: the expiry of a code e-mailed again (a resend no longer replaces a live code). */
export function renderConfirmationCode(
  to: string,
  code: string,
  partner: PartnerConfig,
  sentBefore: Date | null = null,
) {
  return render(to, `Your ${partner.schoolName} confirmation code`, [
    `Your confirmation code is ${code}`,
    sentBefore
      ? `This is the code we sent you before; it still works. Enter it on the Confirm Your Account page by ${formatExpiry(sentBefore)}.`
      : 'Enter this 6-digit code on the Confirm Your Account page to finish creating your account. The code expires in 24 hours.',
    `If you did not create an account with the ${partner.admissionsOfficeName}, you can ignore this message.`,
  ]);
}

/**
 * A second sign-up on an address whose account is not confirmed yet: the owner gets the live code,
 * and learns how the password is settled (issue #15): the account takes the password chosen in
 * the browser the code is entered in, and none when that browser made no sign-up.
 */
export function renderSignupAgain(
  to: string,
  code: string,
  expiresAt: Date,
  loginUrl: string,
  partner: PartnerConfig,
) {
  return render(to, `Your ${partner.schoolName} confirmation code`, [
    `Your confirmation code is ${code}`,
    `Someone signed up again with this email address, which already has an account waiting for confirmation. Enter the code on the Confirm Your Account page by ${formatExpiry(expiresAt)}, in the browser you signed up in: the account then gets the password you chose there, and no other.`,
    `Entered in another browser, the code confirms the account without a password: then choose "Forgot password?" at ${loginUrl} to set one.`,
    `If you did not create this account, do not use the code; "Forgot password?" at ${loginUrl} sets your own password and also confirms the account.`,
  ]);
}

export function renderExistingAccountNotice(to: string, loginUrl: string, partner: PartnerConfig) {
  return render(to, `Someone tried to create a ${partner.schoolName} account with your email`, [
    'Someone tried to create a new application account with this email address, but you already have one.',
    `If it was you, log in at ${loginUrl} — or use "Forgot password?" there if you do not remember your password.`,
    'If it was not you, you can ignore this message; your account has not been changed.',
  ]);
}

export function renderPasswordReset(to: string, resetUrl: string, partner: PartnerConfig) {
  return render(to, `Reset your ${partner.schoolName} application password`, [
    'We received a request to reset the password of your application account.',
    `To choose a new password, open this link within 60 minutes:\n${resetUrl}`,
    'If you did not ask for this, you can ignore this message; your password has not been changed.',
  ]);
}

export function renderSubmissionConfirmation(to: string, partner: PartnerConfig) {
  return render(to, `We received your ${partner.schoolName} application`, [
    'Your application was successfully submitted.',
    `The ${partner.admissionsOfficeName} will review it and contact you by e-mail. You can log in at any time to download a PDF copy of what you submitted.`,
    `Questions? Write to ${partner.admissionEmail} or call ${partner.admissionPhone}.`,
  ]);
}

/** Who a recommender writes for, and what the link is (docs/checklist.md "The e-mails"). */
export interface RecommendationMail {
  to: string;
  recommenderName: string;
  applicantName: string;
  link: string;
  expiresAt: Date;
  /** Whether the applicant waived their right to read the letter. */
  ferpaWaived: boolean;
}

function describeFerpa(mail: RecommendationMail): string {
  return mail.ferpaWaived
    ? `${mail.applicantName} has waived the right to read your letter (FERPA).`
    : `${mail.applicantName} has not waived the right to read your letter (FERPA): they may ask to see it if they enroll.`;
}

/** The one e-mail a recommender gets when named (or when their e-mail address changes). */
export function renderRecommendationInvitation(mail: RecommendationMail, partner: PartnerConfig) {
  return render(
    mail.to,
    `${mail.applicantName} asks you for a recommendation to ${partner.schoolName}`,
    [
      `Dear ${mail.recommenderName},`,
      `${mail.applicantName} is applying to ${partner.schoolName} and has named you as a recommender.`,
      `Please submit your letter through this link, which works only for this applicant and only for you, until ${formatExpiry(mail.expiresAt)}:\n${mail.link}`,
      describeFerpa(mail),
      'You do not need an account. Do not forward this e-mail: anyone with the link can submit a letter in your name.',
      `Questions? Write to ${partner.admissionEmail}.`,
    ],
  );
}

/** A reminder: the same live link, sent by the weekly rule or by the applicant. */
export function renderRecommendationReminder(mail: RecommendationMail, partner: PartnerConfig) {
  return render(mail.to, `Reminder: a recommendation for ${mail.applicantName}`, [
    `Dear ${mail.recommenderName},`,
    `${mail.applicantName} is still waiting for your recommendation to ${partner.schoolName}.`,
    `Your link works until ${formatExpiry(mail.expiresAt)}:\n${mail.link}`,
    describeFerpa(mail),
    `If you have already sent your letter another way, or cannot write one, please tell ${partner.admissionEmail}.`,
  ]);
}

/** The admissions office asks the applicant for an item (a transcript, a form). */
export function renderChecklistRequest(
  to: string,
  request: { title: string; message: string; statusUrl: string },
  partner: PartnerConfig,
) {
  return render(to, `${partner.admissionsOfficeName}: please send your ${request.title}`, [
    `The ${partner.admissionsOfficeName} asks you for: ${request.title}.`,
    ...(request.message.trim() ? [request.message.trim()] : []),
    `Upload it on your application's status page:\n${request.statusUrl}`,
    `Questions? Write to ${partner.admissionEmail} or call ${partner.admissionPhone}.`,
  ]);
}
