/** The built-in emails in Arabic (Modern Standard Arabic; the email is laid out right to left). */
import type { EmailMessages } from "./types";

export const ar: EmailMessages = {
  common: {
    greeting: "مرحبًا!",
    greetingNamed: "مرحبًا {name}!",
    ignore: "إذا لم تكن تتوقع هذه الرسالة، فيمكنك تجاهلها بأمان.",
  },
  email_verification: {
    subject: "تحقّق من بريدك الإلكتروني في {project}",
    heading: "تحقّق من بريدك الإلكتروني في {project}",
    paragraph: "يُرجى تأكيد أن عنوان البريد الإلكتروني هذا يخصّك.",
    button: "تأكيد بريدي الإلكتروني",
  },
  password_reset: {
    subject: "أعد تعيين كلمة مرورك في {project}",
    heading: "أعد تعيين كلمة مرورك في {project}",
    paragraph: "طلب أحدهم إعادة تعيين كلمة مرورك. يعمل الرابط مرة واحدة فقط وتنتهي صلاحيته.",
    button: "إعادة تعيين كلمة المرور",
  },
  magic_link: {
    subject: "تسجيل الدخول إلى {project}: رمزك هو {otp}",
    heading: "تسجيل الدخول إلى {project}",
    paragraph: "رمزك الصالح لمرة واحدة أدناه: اكتبه لتسجيل الدخول، أو استخدم الزر.",
    button: "تسجيل الدخول",
  },
  team_invitation: {
    subject: "تمت دعوتك للانضمام إلى {teamDisplayName}",
    heading: "أنت مدعو إلى {teamDisplayName}",
    paragraph: "انقر على الزر أدناه للانضمام إلى الفريق {teamDisplayName} على {project}.",
    button: "الانضمام إلى الفريق",
  },
  sign_in_invitation: {
    subject: "تمت دعوتك إلى {project}",
    heading: "أنت مدعو لتسجيل الدخول إلى {teamDisplayName}",
    paragraph: "انقر على الزر أدناه لتسجيل الدخول إلى حسابك.",
    button: "تسجيل الدخول",
  },
  password_changed: {
    subject: "تم تغيير كلمة مرورك في {project}",
    heading: "تم تغيير كلمة مرورك",
    paragraph: "تم للتو تغيير كلمة مرور حسابك في {project}.",
    footnote: "إذا لم تغيّرها بنفسك، فأعد تعيين كلمة مرورك الآن وراجع الجلسات النشطة في حسابك.",
  },
  new_sign_in: {
    subject: "تسجيل دخول جديد إلى حسابك في {project}",
    heading: "تسجيل دخول جديد إلى حسابك",
    paragraph: "تم تسجيل الدخول إلى حسابك في {project} من جهاز أو مكان لم نره من قبل.",
    device: "الجهاز: {signInDevice}",
    location: "الموقع: {signInLocation}",
    time: "الوقت: {signInTime}",
    footnote: "إذا كنت أنت، فيمكنك تجاهل هذه الرسالة. وإن لم تكن أنت، فغيّر كلمة مرورك الآن وسجّل الخروج من جلساتك الأخرى.",
  },
  sign_in_locked: {
    subject: "محاولات كثيرة بكلمة مرور خاطئة لحسابك في {project}",
    heading: "تسجيل الدخول بكلمة المرور مقفل مؤقتًا",
    paragraph:
      "أدخل أحدهم كلمة مرور خاطئة لحسابك في {project} مرات كثيرة، لذا أُوقف تسجيل الدخول بكلمة المرور حتى {lockedUntil}. لا يزال بإمكانك تسجيل الدخول برمز يُرسَل بالبريد الإلكتروني أو بمفتاح مرور أو بحساب مرتبط.",
    footnote: "إذا لم تكن أنت، فلم تُقبل كلمة مرورك. فكّر في تغييرها إلى كلمة مرور طويلة وفريدة.",
  },
  payment_receipt: {
    subject: "إيصالك من {project}",
    heading: "شكرًا على شرائك",
    paragraph: "اكتملت عملية الدفع مقابل {productName}.",
    total: "إجمالي المدفوع: {amount}",
    quantity: "الكمية: {quantity}",
    button: "عرض الإيصال",
    footnote: "احتفظ بهذه الرسالة في سجلاتك.",
  },
  payment_failed: {
    subject: "فشل الدفع في {project}",
    heading: "لم تتم عملية الدفع",
    paragraph: "لم نتمكن من تحصيل دفعة بقيمة {amount} مقابل {productName}.",
    button: "تحديث وسيلة الدفع",
    footnote: "حدّث وسيلة الدفع للاحتفاظ باشتراكك.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "رمز تسجيل الدخول إلى {project}: {otp}",
    heading: "أكّد أنك أنت",
    paragraph:
      "سجّل أحدهم الدخول إلى حسابك في {project} بكلمة مرورك من جهاز لم نره من قبل. لإكمال تسجيل الدخول على ذلك الجهاز، اكتب هذا الرمز:",
    footnote: "إن لم تكن أنت، فلا تشارك الرمز وغيّر كلمة مرورك الآن.",
  },
  fallbacks: { unknownDevice: "جهاز غير معروف", unknownLocation: "موقع غير معروف", purchase: "عملية شراء", subscription: "اشتراك" },
};
