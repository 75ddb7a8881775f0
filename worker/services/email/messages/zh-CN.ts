/** The built-in emails in Simplified Chinese (您). */
import type { EmailMessages } from "./types";

export const zhCN: EmailMessages = {
  common: {
    greeting: "您好！",
    greetingNamed: "{name}，您好！",
    ignore: "如果您没有预期收到这封邮件，可以放心忽略。",
  },
  email_verification: {
    subject: "验证您在 {project} 的邮箱",
    heading: "验证您在 {project} 的邮箱",
    paragraph: "请确认此邮箱地址属于您。",
    button: "验证我的邮箱",
  },
  password_reset: {
    subject: "重置您在 {project} 的密码",
    heading: "重置您在 {project} 的密码",
    paragraph: "有人请求重置您的密码。此链接仅可使用一次，并会过期。",
    button: "重置我的密码",
  },
  magic_link: {
    subject: "登录 {project}：您的验证码是 {otp}",
    heading: "登录 {project}",
    paragraph: "您的一次性验证码如下：输入验证码即可登录，也可以使用下方按钮。",
    button: "登录",
  },
  team_invitation: {
    subject: "您已被邀请加入 {teamDisplayName}",
    heading: "邀请您加入 {teamDisplayName}",
    paragraph: "点击下方按钮，加入 {project} 上的团队 {teamDisplayName}。",
    button: "加入团队",
  },
  sign_in_invitation: {
    subject: "您已受邀加入 {project}",
    heading: "邀请您登录 {teamDisplayName}",
    paragraph: "点击下方按钮登录您的账户。",
    button: "登录",
  },
  password_changed: {
    subject: "您在 {project} 的密码已更改",
    heading: "您的密码已更改",
    paragraph: "您的 {project} 账户密码刚刚被更改。",
    footnote: "如果不是您本人更改的，请立即重置密码，并检查账户的活跃会话。",
  },
  new_sign_in: {
    subject: "您的 {project} 账户有新的登录",
    heading: "您的账户有新的登录",
    paragraph: "有人从我们此前未见过的设备或地点登录了您的 {project} 账户。",
    device: "设备：{signInDevice}",
    location: "地点：{signInLocation}",
    time: "时间：{signInTime}",
    footnote: "如果是您本人，可以忽略此邮件。如果不是，请立即更改密码并退出其他会话。",
  },
  sign_in_locked: {
    subject: "您的 {project} 账户密码错误次数过多",
    heading: "密码登录已暂时锁定",
    paragraph:
      "有人多次为您的 {project} 账户输入了错误的密码，因此密码登录已暂停至 {lockedUntil}。您仍可以使用邮件验证码、通行密钥或已关联的账户登录。",
    footnote: "如果不是您本人，请放心，您的密码并未被接受。建议将其更换为足够长且独一无二的密码。",
  },
  payment_receipt: {
    subject: "来自 {project} 的收据",
    heading: "感谢您的购买",
    paragraph: "您对 {productName} 的付款已完成。",
    total: "实付总额：{amount}",
    quantity: "数量：{quantity}",
    button: "查看收据",
    footnote: "请保存此邮件以备查。",
  },
  payment_failed: {
    subject: "{project} 付款失败",
    heading: "您的付款未能完成",
    paragraph: "我们未能收取 {productName} 的 {amount} 款项。",
    button: "更新付款方式",
    footnote: "请更新您的付款方式以保留订阅。",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "您的 {project} 登录验证码：{otp}",
    heading: "确认是您本人",
    paragraph: "有人在一台我们从未见过的设备上使用您的密码登录了您的 {project} 账户。要在该设备上完成登录，请输入以下验证码：",
    footnote: "如果不是您本人操作，请勿透露此验证码，并立即更改密码。",
  },
  fallbacks: { unknownDevice: "未知设备", unknownLocation: "未知地点", purchase: "购买", subscription: "订阅" },
};
