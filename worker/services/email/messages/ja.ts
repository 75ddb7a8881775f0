/** The built-in emails in Japanese (polite です/ます). */
import type { EmailMessages } from "./types";

export const ja: EmailMessages = {
  common: {
    greeting: "こんにちは。",
    greetingNamed: "{name} さん、こんにちは。",
    ignore: "このメールに心当たりがない場合は、無視していただいて問題ありません。",
  },
  email_verification: {
    subject: "{project} のメールアドレスを確認してください",
    heading: "{project} のメールアドレスを確認してください",
    paragraph: "このメールアドレスがご本人のものであることを確認してください。",
    button: "メールアドレスを確認する",
  },
  password_reset: {
    subject: "{project} のパスワードを再設定してください",
    heading: "{project} のパスワードを再設定してください",
    paragraph: "パスワードの再設定がリクエストされました。リンクは一度だけ有効で、有効期限があります。",
    button: "パスワードを再設定する",
  },
  magic_link: {
    subject: "{project} にサインイン: コードは {otp} です",
    heading: "{project} にサインイン",
    paragraph: "ワンタイムコードは以下のとおりです。入力してサインインするか、ボタンを使用してください。",
    button: "サインイン",
  },
  team_invitation: {
    subject: "{teamDisplayName} への参加に招待されました",
    heading: "{teamDisplayName} に招待されました",
    paragraph: "下のボタンをクリックして、{project} のチーム {teamDisplayName} に参加してください。",
    button: "チームに参加",
  },
  sign_in_invitation: {
    subject: "{project} に招待されました",
    heading: "{teamDisplayName} へのサインインに招待されました",
    paragraph: "下のボタンをクリックして、アカウントにサインインしてください。",
    button: "サインイン",
  },
  password_changed: {
    subject: "{project} のパスワードが変更されました",
    heading: "パスワードが変更されました",
    paragraph: "{project} アカウントのパスワードが変更されました。",
    footnote: "変更した覚えがない場合は、今すぐパスワードを再設定し、アカウントのアクティブなセッションを確認してください。",
  },
  new_sign_in: {
    subject: "{project} アカウントへの新しいサインイン",
    heading: "アカウントへの新しいサインイン",
    paragraph: "これまでに確認されていないデバイスまたは場所から、{project} アカウントへのサインインがありました。",
    device: "デバイス: {signInDevice}",
    location: "場所: {signInLocation}",
    time: "日時: {signInTime}",
    footnote:
      "ご本人の場合は、このメールを無視してください。心当たりがない場合は、今すぐパスワードを変更し、他のセッションからサインアウトしてください。",
  },
  sign_in_locked: {
    subject: "{project} アカウントでパスワードの誤入力が多すぎます",
    heading: "パスワードでのサインインを一時的にロックしました",
    paragraph:
      "{project} アカウントで誤ったパスワードが何度も入力されたため、{lockedUntil} までパスワードでのサインインを停止しています。メールで届くコード、パスキー、または連携済みのアカウントでは引き続きサインインできます。",
    footnote: "お心当たりがない場合も、パスワードは受け付けられていません。長く固有のパスワードへの変更をご検討ください。",
  },
  payment_receipt: {
    subject: "{project} からの領収書",
    heading: "ご購入ありがとうございます",
    paragraph: "{productName} のお支払いが完了しました。",
    total: "お支払い合計: {amount}",
    quantity: "数量: {quantity}",
    button: "領収書を表示",
    footnote: "このメールは記録として保管してください。",
  },
  payment_failed: {
    subject: "{project} のお支払いに失敗しました",
    heading: "お支払いを完了できませんでした",
    paragraph: "{productName} の {amount} のお支払いを回収できませんでした。",
    button: "支払い方法を更新",
    footnote: "サブスクリプションを継続するには、お支払い方法を更新してください。",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "{project} のサインインコード: {otp}",
    heading: "ご本人確認",
    paragraph:
      "これまでに見たことのないデバイスから、あなたのパスワードで {project} のアカウントへのサインインがありました。そのデバイスでサインインを完了するには、次のコードを入力してください:",
    footnote: "心当たりがない場合は、このコードを誰にも伝えず、今すぐパスワードを変更してください。",
  },
  fallbacks: { unknownDevice: "不明なデバイス", unknownLocation: "不明な場所", purchase: "購入", subscription: "サブスクリプション" },
};
