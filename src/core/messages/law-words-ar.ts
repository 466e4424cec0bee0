/** The law findings' sentences in Arabic, built from their params (./law-words-kit.ts). */
import { electiveShareOf, basisOf, groupsOf, problemsOf, type LawWords } from './law-words-kit.js';

export const ar: LawWords = {
  groups: { descendants: 'الأولاد (الفروع)', spouse: 'الزوج أو الزوجة', parents: 'الوالدان' },
  basis: { estate: 'من التركة', 'movable-estate': 'من التركة المنقولة (الأصول المشفرة منقولة)' },
  problems: {
    'husband-and-wife': 'لا يمكن أن يرث زوج وزوجة معًا من شخص واحد',
    one: (h) => `«${h}»: لا يكون إلا واحدًا`,
    wives: 'لا يجوز أكثر من أربع زوجات',
  },
  sentences: {
    'plan.percentage-precision': (g) =>
      `نسبة المستفيد ${g.f.number(g.num('beneficiary'))} فيها أكثر من منزلتين عشريتين.`,
    'plan.percentages-sum': (g) => `مجموع النسب ${g.pct('totalPercent')} وليس ${g.f.percent(100)}.`,
    'plan.relationship-missing': (g) =>
      `مستفيدون بلا صلة قرابة محددة: ${g.f.number(g.num('count'))}. لا يمكن التحقق من الحصة المحفوظة وحقوق الزوج إلا للمستفيدين الذين ذُكرت صلة قرابتهم.`,
    'template.mismatch': (g) => {
      const place = g.place();
      const quoted = (id: string) => `«${g.template(id)}»`;
      const recommended = `النماذج الموصى بها: ${g.f.and(g.str('recommended').split(',').map(quoted))}.`;
      switch (g.str('variant')) {
        case 'no-legal-force':
          return `${place}: ليس لأحكام الميراث الإسلامي قوة قانونية هناك، فتسري الخطة تصرفًا عاديًا وفق القانون المحلي، بما في ذلك أي حصة محفوظة أو حقوق للزوج.`;
        case 'forced-heirship':
          return `${place}: يحفظ القانون هناك حصة للورثة، ونموذج ${quoted(g.str('template'))} يفترض حرية الإيصاء. يحتفظ أصحاب الحصة المحفوظة بحقوقهم مهما قالت الخطة، فانظر في نموذج ${quoted('civil-law')}.`;
        case 'no-reserve':
          return `${place}: لا يحفظ القانون هناك حصة للورثة على طريقة القانون المدني، فحصص نموذج ${quoted(g.str('template'))} المحفوظة غير لازمة. ${recommended}`;
        default:
          return `${place}: نموذج ${quoted(g.str('template'))} ليس من النماذج الموصى بها. ${recommended}`;
      }
    },
    'forced-heirship.reserve': (g) => {
      const cond = g.flag('conditional') ? ' ولا ينطبق هذا إلا بالشروط التي يحددها القانون.' : '';
      if (g.str('variant') === 'per-child')
        return `${g.place()}: ${g.num('children') === 1 ? 'للولد المذكور' : `لكل واحد من الأولاد الـ${g.f.number(g.num('children'))} المذكورين`} حصة محفوظة لا تقل عن ${g.pct('eachPercent')} ${basisOf(g, ar)}، والمستفيد ${g.f.number(g.num('beneficiary'))} يحصل على ${g.pct('givenPercent')}.${cond}`;
      return `${g.place()}: يحفظ القانون ${g.fraction('fraction')} ${basisOf(g, ar)} (${g.pct('reservePercent')}) لهؤلاء الورثة: ${groupsOf(g, ar, 'heirs')}، وهذه الخطة تعطيهم ${g.pct('givenPercent')}. لا تستطيع الوصية أن تنتزع منهم هذه الحصة: ${g.str('claim') === 'money' ? 'يجوز لهم مطالبة التركة بالفرق مبلغًا من المال' : 'يجوز لهم المطالبة بتخفيض التبرعات الأخرى'}.${cond}`;
    },
    'forced-heirship.usufruct': (g) => {
      const cond = g.flag('conditional') ? ' ولا ينطبق هذا إلا بالشروط التي يحددها القانون.' : '';
      const what =
        'أي حق مدى الحياة في استعمال هذا الجزء من الأموال أو أخذ غلته، وهو يثقل ما يحصل عليه الورثة الآخرون. وليس حصة ملكية يستطيع العقد دفعها.';
      if (g.str('variant') === 'not-named')
        return `${g.place()}: إن كنت متزوجًا فلزوجك بحكم القانون حق الانتفاع بـ${g.fraction('fraction')} ${basisOf(g, ar)} مهما قالت هذه الخطة، ${what}${cond}`;
      return `${g.place()}: يحفظ القانون حق الانتفاع بـ${g.fraction('fraction')} ${basisOf(g, ar)} لهؤلاء الورثة: ${groupsOf(g, ar, 'heirs')}، ${what} وهذه الخطة تعطيهم ${g.pct('givenPercent')} ملكيةً، ويبقى لهم المطالبة بحق الانتفاع ما لم يعادله ذلك في القيمة.${cond}`;
    },
    'forced-heirship.not-computed': (g) => `${g.place()}: يحفظ القانون هناك حصة للورثة، وهذه الخدمة لا تحسبها.`,
    'forced-heirship.unnamed-heirs': (g) =>
      `${g.place()}: في وضعك يحفظ القانون جزءًا من التركة لهؤلاء الورثة: ${groupsOf(g, ar, 'heirs')}. لا تذكر الخطة أحدًا منهم، فإن وُجدوا احتفظوا بحصتهم وإن لم تذكرهم الخطة.`,
    'spouse.elective-share': (g) => {
      const place = g.place();
      const statute = g.str('statute');
      switch (g.str('variant')) {
        case 'no-spouse': {
          const what = electiveShareOf(g, (share) => `حتى ${share}`, 'حصة يحددها القانون');
          return `${place}: للزوج الباقي على قيد الحياة حصة اختيارية (${statute}): إن كنت متزوجًا فلزوجك أن يطالب بـ${what} مهما قالت هذه الخطة. وتُحسب على أكثر من أصول هذه الخطة، فتدخل فيها الأموال الأخرى التي تؤول إليه.`;
        }
        case 'fixed':
          return `${place}: للزوج الباقي أن يختار أخذ ${g.fraction('fraction')} (${g.pct('requiredPercent')}) بدل ما تعطيه الوصية (${statute})، وهذه الخطة تعطيه ${g.pct('givenPercent')}.`;
        case 'up-to':
          return `${place}: للزوج الباقي أن يختار أخذ ما يصل إلى ${g.fraction('maxFraction')} (${g.pct('maxPercent')}) بحسب مدة الزواج (${statute})، وهذه الخطة تعطيه ${g.pct('givenPercent')}.`;
        default:
          return `${place}: للزوج الباقي أن يختار عدم الأخذ بالوصية (${statute}). تحقق من أن هذه الخطة وأموالك الأخرى تترك له ما يعطيه القانون.`;
      }
    },
    'spouse.community-property': (g) => {
      if (g.str('variant') === 'opt-in')
        return `${g.place()}: يجوز الاشتراك في الأموال بين الزوجين باتفاق. إن كنت تملك مع زوجك أموالًا على هذا النحو فنصفها لزوجك، ولا تتصرف الخطة إلا في نصفك.`;
      const regime = g.flag('optIn')
        ? `يسمح القانون (${g.place()}) بالاشتراك في الأموال باتفاق أو بائتمان، وقد ذكرتَ أن أموالكما مشتركة.`
        : `النظام المالي الافتراضي للزوجين (${g.place()}) هو الاشتراك في الأموال.`;
      const first = g.flag('spouseNamed') ? regime : `إن كنت متزوجًا: ${regime}`;
      return `${first} يملك الزوج الباقي أصلًا نصف الأموال المشتركة، فلا تتصرف الخطة إلا في نصفك وفي أموالك الخاصة؛ لا تضع نصف زوجك في هذا العقد دون موافقته.`;
    },
    'spouse.deferred-community': (g) =>
      g.str('variant') === 'share-increase'
        ? `${g.place()}: لا يقسم النظام المالي الافتراضي مكاسب الزوجين عند الوفاة، بل يزيد حصة الزوج القانونية بدلًا من ذلك. وللزوج الذي يرفض ما تعطيه الخطة أن يطالب بدلًا منه بتسوية المكاسب، مع حصة إلزامية تُحسب على الحصة غير المزيدة.`
        : `${g.place()}: النظام المالي الافتراضي يقسم مكاسب الزوجين عند انتهاء الزواج، ويُسوّى حق الزوج قبل قسمة التركة.`,
    'islamic-law.applies': (g) =>
      `${g.place()}: تحكم أحكام الميراث الإسلامي ${g.str('scope') === 'all' ? 'التركات' : 'تركات المسلمين'}. إن كانت تحكم تركتك فللورثة أصحاب الفروض حصص ثابتة مهما قالت هذه الخطة؛ فانظر في نموذج «${g.template('islamic-mirth')}» أو «${g.template('islamic-wasiyyah')}».`,
    'islamic-law.bequest-limit': (g) =>
      `حيث تسري الشريعة الإسلامية، لا تتجاوز الوصية لغير الورثة ${g.fraction('fraction')} التركة (${g.pct('limitPercent')}) إلا بإجازة الورثة، وهذه الخطة تعطي ${g.pct('givenPercent')} لمستفيدين ليسوا من الأقارب.`,
    'faraid.school': (g) => {
      const school = g.school();
      if (g.has('jurisdictionSchool')) {
        return g.str('jurisdictionSchool') === 'code'
          ? `${g.place()}: يطبّق القانون هناك تقنينه الخاص، والمذهب ${school} المطبّق هنا اختاره الطلب.`
          : `${g.place()}: يتبع القانون هناك المذهب ${g.school('jurisdictionSchool')}، والمذهب ${school} المطبّق هنا اختاره الطلب وقد يختلف عما تطبقه المحاكم هناك.`;
      }
      switch (g.str('chosenBy')) {
        case 'jurisdiction':
          return `جرى التحقق من الفرائض على المذهب ${school}، وهو المذهب الذي يتبعه القانون (${g.place()}).`;
        case 'caller':
          return `جرى التحقق من الفرائض على المذهب ${school}، كما اختير.`;
        default:
          return `جرى التحقق من الفرائض على المذهب ${school} افتراضيًا: لا يوجد مذهب مسجّل (${g.place()}).`;
      }
    },
    'faraid.school-not-computed': (g) =>
      `المذهب ${g.school()} هو المطبّق هنا، وهذه الحاسبة لا تحسبه بعد، فلم يُتحقق من الحصص.`,
    'faraid.public-treasury': (g) =>
      `الوارث الوحيد: «${g.heir()}». ودون ردّ على الزوج يبقى له الفرض وحده؛ ويذهب ${g.pct('treasuryPercent')} إلى بيت المال.${g.flag('treasuryNamed') ? '' : ' أضف مستفيدًا صلته «public treasury» أو طبّق الردّ على الزوج.'}`,
    'faraid.share-mismatch': (g) =>
      g.str('variant') === 'treasury'
        ? `يُعطى بيت المال ${g.pct('givenPercent')} لكن نصيبه ${g.pct('expectedPercent')}${g.flag('carriedEarlier') ? ' (يحمله مستفيد سابق)' : ''}.`
        : `«${g.heir()}»: الحصة في الخطة ${g.pct('givenPercent')}، والنصيب في الفرائض (المذهب ${g.school()}) ${g.pct('expectedPercent')}${g.has('leftPercent') ? ` (من ${g.pct('leftPercent')} الباقية بعد الوصايا)` : ''}.`,
    'faraid.excluded-heir': (g) => `«${g.heir()}» لا يرث شيئًا: يحجبه «${g.heir('by')}».`,
    'faraid.missing-heir': (g) =>
      `«${g.heir()}» وارث على قيد الحياة، ليس من مستفيدي الخطة لكن له ${g.pct('expectedPercent')} من التركة.`,
    'faraid.assumption': (g) =>
      `حُسبت الحصص بالفرائض (المذهب ${g.school()}) على افتراض أن الورثة المذكورين هم كل الورثة الأحياء؛ وأي وارث آخر يغيّرها.`,
    'faraid.non-heir': (g) =>
      g.str('variant') === 'treasury'
        ? 'لا يأخذ بيت المال نصيبًا إلا إذا كان الزوج أو الزوجة الوارث الوحيد ولم يُطبّق الردّ على الزوج؛ وهنا لا يأخذ شيئًا.'
        : `صلة قرابة المستفيد ${g.f.number(g.num('beneficiary'))} لا تجعله وارثًا في الفرائض، وخطة الميراث لا تعطي إلا الورثة. استعمل نموذج «${g.template('islamic-wasiyyah')}» للإيصاء بما يصل إلى الثلث لغير الورثة.`,
    'faraid.no-heirs': (g) =>
      g.flag('mirth')
        ? 'لا أحد من المستفيدين وارث في الفرائض، وخطة الميراث تقسم التركة بين الورثة.'
        : 'لا أحد من المستفيدين وارث في الفرائض، فالخطة كلها وصايا.',
    'faraid.invalid-heirs': (g) => `صلات قرابة المستفيدين لا تجتمع: ${problemsOf(g, ar)}.`,
    'faraid.distant-kindred': () =>
      'لا يمكن التحقق من الحصص: أنصبة ذوي الأرحام المذكورين لا تُعرف من صلات قرابتهم وحدها.',
    'islamic.assumed-relationship': (g) =>
      `تُفهم صلة قرابة المستفيد ${g.f.number(g.num('beneficiary'))} على أنها «${g.heir()}».`,
    'islamic.ambiguous-relationship': (g) =>
      `صلة قرابة المستفيد ${g.f.number(g.num('beneficiary'))} ملتبسة في الفرائض: حدّد المقصود، ${g.f.or(g.heirs('candidates').map((h) => `«${h}»`))}. تُدقَّق الأنصبة بعد تحديده.`,
    'islamic.unmapped-relationship': (g) => {
      const who = `المستفيد ${g.f.number(g.num('beneficiary'))}`;
      const tail = g.flag('mirth') ? '' : ' ويُعامل موصًى له من غير الورثة.';
      return g.str('variant') === 'missing'
        ? `لم تُذكر صلة قرابة ${who}، والنموذج الإسلامي يحتاج صلة كل مستفيد بالمتوفى.${tail}`
        : `صلة قرابة ${who} لا تقابل أي وارث في الفرائض.${g.flag('mirth') ? ' استعمل لفظًا معروفًا.' : tail}`;
    },
    'wasiyyah.bequest-to-heir': (g) =>
      `«${g.heir()}»: الحصة في الخطة ${g.pct('givenPercent')} بدل النصيب في الفرائض ${g.pct('expectedPercent')}: الزيادة وصية لوارث لا تصح إلا بإجازة باقي الورثة${g.flag('consent') ? '، وقد أُجيزت' : ''}.`,
    'wasiyyah.excluded-heir-legatee': (g) => `«${g.heir()}» محجوب عن الميراث بـ«${g.heir('by')}»، فتجوز له الوصية.`,
    'wasiyyah.over-one-third': (g) =>
      `مجموع الوصايا ${g.pct('bequestPercent')}، أي أكثر من ثلث التركة؛ ولا تصح الزيادة إلا بإجازة الورثة${g.flag('consent') ? '، وقد أُجيزت' : ''}.`,
    'wasiyyah.no-bequest': () => 'لا أحد من المستفيدين موصًى له؛ فالخطة قسمة فرائض محضة.',
  },
};
