/** The built-in emails in English (the source texts; the other locales translate these). */
import type { EmailMessages } from "./types";

export const en: EmailMessages = {
  common: {
    greeting: "Hi!",
    greetingNamed: "Hi, {name}!",
    ignore: "If you were not expecting this email, you can safely ignore it.",
  },
  email_verification: {
    subject: "Verify your email at {project}",
    heading: "Verify your email at {project}",
    paragraph: "Please confirm that this email address belongs to you.",
    button: "Verify my email",
  },
  password_reset: {
    subject: "Reset your password at {project}",
    heading: "Reset your password at {project}",
    paragraph: "Someone asked to reset your password. The link works once and expires.",
    button: "Reset my password",
  },
  magic_link: {
    subject: "Sign in to {project}: Your code is {otp}",
    heading: "Sign in to {project}",
    paragraph: "Your one-time code is below: type it to sign in, or use the button.",
    button: "Sign in",
  },
  team_invitation: {
    subject: "You have been invited to join {teamDisplayName}",
    heading: "You are invited to {teamDisplayName}",
    paragraph: "Click the button below to join the team {teamDisplayName} on {project}.",
    button: "Join team",
  },
  sign_in_invitation: {
    subject: "You have been invited to {project}",
    heading: "You are invited to sign in to {teamDisplayName}",
    paragraph: "Click the button below to sign in to your account.",
    button: "Sign in",
  },
  password_changed: {
    subject: "Your password at {project} was changed",
    heading: "Your password was changed",
    paragraph: "The password of your {project} account was just changed.",
    footnote: "If you did not change it, reset your password now and review your account's active sessions.",
  },
  new_sign_in: {
    subject: "New sign-in to your {project} account",
    heading: "New sign-in to your account",
    paragraph: "Your {project} account was signed in to from a device or place we have not seen before.",
    device: "Device: {signInDevice}",
    location: "Location: {signInLocation}",
    time: "Time: {signInTime}",
    footnote: "If this was you, you can ignore this email. If not, change your password now and sign out of your other sessions.",
  },
  sign_in_locked: {
    subject: "Too many wrong passwords for your {project} account",
    heading: "Password sign-in is locked for now",
    paragraph:
      "Someone typed a wrong password for your {project} account too many times, so signing in with the password is paused until {lockedUntil}. You can still sign in with an emailed code, a passkey or a linked account.",
    footnote: "If this was not you, your password was not accepted. Consider changing it to a long, unique one.",
  },
  payment_receipt: {
    subject: "Your receipt from {project}",
    heading: "Thanks for your purchase",
    paragraph: "Your payment for {productName} is complete.",
    total: "Total paid: {amount}",
    quantity: "Quantity: {quantity}",
    button: "View receipt",
    footnote: "Keep this email for your records.",
  },
  payment_failed: {
    subject: "Payment failed for {project}",
    heading: "Your payment did not go through",
    paragraph: "We could not collect the payment of {amount} for {productName}.",
    button: "Update payment",
    footnote: "Update your payment method to keep your subscription.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "Your {project} sign-in code: {otp}",
    heading: "Confirm it is you",
    paragraph:
      "Someone signed in to your {project} account with your password from a device we have not seen before. To finish signing in there, type this code:",
    footnote: "If this was not you, do not share the code: change your password now.",
  },
  fallbacks: { unknownDevice: "Unknown device", unknownLocation: "Unknown location", purchase: "Purchase", subscription: "Subscription" },
};
