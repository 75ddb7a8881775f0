/** The built-in emails in Korean (polite 합니다체). */
import type { EmailMessages } from "./types";

export const ko: EmailMessages = {
  common: {
    greeting: "안녕하세요!",
    greetingNamed: "{name}님, 안녕하세요!",
    ignore: "이 이메일을 예상하지 못하셨다면 무시하셔도 됩니다.",
  },
  email_verification: {
    subject: "{project} 이메일 주소를 인증하세요",
    heading: "{project} 이메일 주소를 인증하세요",
    paragraph: "이 이메일 주소가 본인의 것인지 확인해 주세요.",
    button: "이메일 인증하기",
  },
  password_reset: {
    subject: "{project} 비밀번호를 재설정하세요",
    heading: "{project} 비밀번호를 재설정하세요",
    paragraph: "누군가 비밀번호 재설정을 요청했습니다. 링크는 한 번만 사용할 수 있으며 만료됩니다.",
    button: "비밀번호 재설정",
  },
  magic_link: {
    subject: "{project} 로그인: 코드는 {otp}입니다",
    heading: "{project} 로그인",
    paragraph: "일회용 코드는 아래와 같습니다. 코드를 입력해 로그인하거나 버튼을 사용하세요.",
    button: "로그인",
  },
  team_invitation: {
    subject: "{teamDisplayName} 팀에 초대되었습니다",
    heading: "{teamDisplayName} 팀 초대",
    paragraph: "아래 버튼을 클릭해 {project}의 {teamDisplayName} 팀에 참여하세요.",
    button: "팀 참여하기",
  },
  sign_in_invitation: {
    subject: "{project}에 초대되었습니다",
    heading: "{teamDisplayName} 로그인 초대",
    paragraph: "아래 버튼을 클릭해 계정에 로그인하세요.",
    button: "로그인",
  },
  password_changed: {
    subject: "{project} 비밀번호가 변경되었습니다",
    heading: "비밀번호가 변경되었습니다",
    paragraph: "{project} 계정의 비밀번호가 방금 변경되었습니다.",
    footnote: "직접 변경하지 않으셨다면 지금 비밀번호를 재설정하고 계정의 활성 세션을 확인하세요.",
  },
  new_sign_in: {
    subject: "{project} 계정에 새로운 로그인이 있습니다",
    heading: "계정에 새로운 로그인이 있습니다",
    paragraph: "이전에 확인되지 않은 기기 또는 위치에서 {project} 계정에 로그인했습니다.",
    device: "기기: {signInDevice}",
    location: "위치: {signInLocation}",
    time: "시간: {signInTime}",
    footnote: "본인이라면 이 이메일을 무시하셔도 됩니다. 본인이 아니라면 지금 비밀번호를 변경하고 다른 세션에서 로그아웃하세요.",
  },
  sign_in_locked: {
    subject: "{project} 계정에 잘못된 비밀번호가 너무 많이 입력되었습니다",
    heading: "비밀번호 로그인이 일시적으로 잠겼습니다",
    paragraph:
      "누군가 {project} 계정에 잘못된 비밀번호를 너무 여러 번 입력하여 {lockedUntil}까지 비밀번호 로그인이 일시 중지되었습니다. 이메일로 받은 코드, 패스키 또는 연결된 계정으로는 계속 로그인할 수 있습니다.",
    footnote: "본인이 아니더라도 비밀번호는 허용되지 않았습니다. 길고 고유한 비밀번호로 변경하는 것을 고려해 보세요.",
  },
  payment_receipt: {
    subject: "{project} 영수증",
    heading: "구매해 주셔서 감사합니다",
    paragraph: "{productName} 결제가 완료되었습니다.",
    total: "총 결제 금액: {amount}",
    quantity: "수량: {quantity}",
    button: "영수증 보기",
    footnote: "기록을 위해 이 이메일을 보관하세요.",
  },
  payment_failed: {
    subject: "{project} 결제 실패",
    heading: "결제가 처리되지 않았습니다",
    paragraph: "{productName}에 대한 {amount} 결제를 처리하지 못했습니다.",
    button: "결제 정보 업데이트",
    footnote: "구독을 유지하려면 결제 수단을 업데이트하세요.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "{project} 로그인 코드: {otp}",
    heading: "본인 확인",
    paragraph: "처음 보는 기기에서 비밀번호로 {project} 계정에 로그인했습니다. 해당 기기에서 로그인을 마치려면 다음 코드를 입력하세요:",
    footnote: "본인이 아니라면 코드를 공유하지 말고 지금 비밀번호를 변경하세요.",
  },
  fallbacks: { unknownDevice: "알 수 없는 기기", unknownLocation: "알 수 없는 위치", purchase: "구매", subscription: "구독" },
};
