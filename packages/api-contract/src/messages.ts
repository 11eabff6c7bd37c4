// Messages the server sends and the SPA shows or matches. Quoted (docs/) ones are verbatim.
export const MESSAGES = {
  unexpected: "We've encountered an unexpected error at this time. Please try again later.",
  sessionInvalid: 'Your session is invalid. Please clear your cookies and login again.',
  idleLogout: 'You have been automatically logged out due to inactivity.',
  submitted: 'Your application was successfully submitted.',
  loginSucceeded: 'You are now logged in.',
  loginFailed: 'Incorrect email address or password.',
  notConfirmed:
    'Your account has not been confirmed yet. Please enter the confirmation code we emailed you, or resend it.',
  accountLocked: 'Too many failed attempts. Please wait a few minutes and try again.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  signupSent: "We've emailed you a 6-digit confirmation code. Please enter it below.",
  confirmed: 'Your account has been confirmed. Please log in.',
  codeRejected: 'This confirmation code is invalid or has expired. Please request a new code.',
  resendSent: 'If your account still needs confirming, we have emailed you your confirmation code.',
  forgotSent:
    'If an account exists for that email address, we have emailed you a link to reset your password.',
  resetDone: 'Your password has been reset. Please log in with your new password.',
  resetRejected: 'This password reset link is invalid or has expired. Please request a new one.',
  passwordTooCommon: 'This password is too common. Please choose one that is harder to guess.',
  loggedOut: 'You have been logged out.',
  answersSaved: 'Your answers were saved.',
  alreadySubmitted: 'Your application has already been submitted and can no longer be changed.',
  missingInformation:
    "We're missing some information! Please complete the highlighted questions and submit again.",
  submitFirst: 'Your application is submitted by the Submit button, not by setting its status.',
  temporaryAnswersGone: 'This link has expired or is not valid. Please start a new application.',
  saved: 'Saved.',
  notFound: 'The page or resource you asked for does not exist.',
  unavailable: 'The service is temporarily unavailable. Please try again in a moment.',
} as const;
