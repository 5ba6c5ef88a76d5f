/**
 * The starter gallery ("Purchased Templates" by default): eight emails most products need,
 * each a document of the editor's own schema. This module is loaded on demand (its own chunk in
 * the ESM build), so it does not weigh on the editor's first load.
 *
 * Links that differ per recipient are merge variables (`{{verify_url}}`); fill them with
 * `renderTemplate`. The accent colour, logo, social links, footer and signature come from the
 * host's branding when a template is loaded.
 */
import type { GalleryTemplate } from '../types.js';
import {
  ACCENT,
  badge,
  bold,
  br,
  button,
  color,
  columns,
  divider,
  doc,
  fact,
  footer,
  h,
  link,
  logo,
  MUTED,
  p,
  quote,
  section,
  signature,
  size,
  small,
  social,
  spacer,
  TINT,
  t,
  ul,
  v,
} from './build.js';

/** Line items as two aligned columns of lines (name, amount): a receipt's table, email-safe. */
const lines = (rows: [string, string][], strong = false) => {
  const cell = (i: 0 | 1) =>
    p(
      rows.flatMap(([name, amount], n) => [
        ...(n ? [br] : []),
        strong ? t(i ? amount : name, bold, size(18)) : t(i ? amount : name),
      ]),
      i ? 'right' : 'left',
    );
  return columns('2-1', [[cell(0)], [cell(1)]], { stack: false, gap: 8 });
};
/** A titled item in a panel: a bold line, not a heading, so the outline stays h1 → h2. */
/** Dark text on a tinted panel (links there stay underlined). */
const INK = '#18181b';
const step = (title: string, text: string) => [p([t(title, bold, size(18))]), small([text])];

const welcome = doc(
  'Your account is ready. Here is how to get the most out of it.',
  'Welcome aboard',
  logo(),
  spacer(8),
  p([badge('Welcome')]),
  h(1, ['Welcome aboard, ', v('first_name', 'friend'), '!']),
  p([
    'We are thrilled to have you with us. Your account is ready, and these three steps will have you up and running in minutes.',
  ]),
  columns(
    '3',
    [
      step('1. Set up your profile', 'Add your photo and details so your team knows who you are.'),
      step('2. Invite your team', 'Work together from day one: invitations take a click.'),
      step('3. Start your first project', 'Pick a template or start from scratch; it is up to you.'),
    ],
    { gap: 12, bg: TINT, padding: 16 },
  ),
  spacer(8),
  button('Get started', '{{dashboard_url}}'),
  p(['Questions? Just reply to this email: a real person reads every message.']),
  signature('Welcome aboard,'),
  divider(16),
  social(),
  footer('You are receiving this email because you created an account.'),
);

const verification = doc(
  'Confirm your email address to finish setting up your account.',
  'Confirm your email address',
  logo(),
  spacer(8),
  h(1, ['Confirm your email address']),
  p(['Hi ', v('first_name', 'there'), ',']),
  p([
    'Please confirm that ',
    v('email', 'this', bold),
    ' is your email address. It keeps your account secure and makes sure you get important notices.',
  ]),
  button('Verify my email', '{{verify_url}}', { align: 'left' }),
  small(['This link expires in 24 hours. If the button does not work, copy this address into your browser:']),
  small([v('verify_url', '', link('{{verify_url}}'))]),
  divider(16),
  small(['Did not sign up? You can safely ignore this email; no account will be created.']),
  footer('This is a one-time message about your account.'),
);

const passwordReset = doc(
  'Use the link inside to choose a new password.',
  'Reset your password',
  logo(),
  spacer(8),
  h(1, ['Reset your password']),
  p([
    'We received a request to reset the password for the account ',
    v('email', 'linked to this address', bold),
    '. Choose a new one with the button below.',
  ]),
  button('Choose a new password', '{{reset_url}}', { align: 'left' }),
  section(
    [
      p([
        t('For your security', bold),
        ', this link works once and expires in ',
        v('expires_in', '60 minutes'),
        '. It was requested from ',
        v('request_location', 'a new device'),
        '.',
      ]),
    ],
    20,
  ),
  spacer(16),
  small([
    'Did not ask for this? Ignore this email and your password stays the same. If you keep getting these, contact our support team.',
  ]),
  footer('This is a security message about your account.'),
);

const receipt = doc(
  'Thanks for your order. Your receipt is inside.',
  'Your receipt',
  logo(),
  spacer(8),
  p([badge('Paid')]),
  h(1, ['Thanks for your order!']),
  p(['Hi ', v('first_name', 'there'), ', we have received your payment. Here is your receipt.']),
  columns(
    '2',
    [[fact('Order number', v('order_number', '', bold))], [fact('Order date', v('order_date', '', bold))]],
    { gap: 0, bg: TINT, padding: 16 },
  ),
  spacer(8),
  lines([
    ['Everyday Tote, Sand', '$48.00'],
    ['Canvas Pouch (2)', '$24.00'],
    ['Gift wrap', '$4.00'],
  ]),
  divider(0),
  spacer(16),
  lines([
    ['Subtotal', '$76.00'],
    ['Shipping', 'Free'],
    ['Tax', '$6.08'],
  ]),
  divider(0, '#d4d4d8', 2),
  spacer(16),
  lines([['Total', '$82.08']], true),
  spacer(8),
  button('View your order', '{{order_url}}'),
  small(['Questions about your order? Reply to this email and we will help.'], 'center'),
  divider(8),
  footer('You are receiving this email because you made a purchase.'),
);

const bar = (done: boolean, text: string) => [
  divider(0, done ? ACCENT : '#e4e4e7', 6),
  p([t(text, ...(done ? [bold, color(ACCENT)] : [color(MUTED)]), size(14))]),
];

const shipping = doc(
  'Good news: your order is on its way.',
  'Your order has shipped',
  logo(),
  spacer(8),
  p([badge('On its way')]),
  h(1, ['Your order has shipped']),
  p([
    'Good news, ',
    v('first_name', 'there'),
    '! Order ',
    v('order_number', '', bold),
    ' left our warehouse and is on its way to you.',
  ]),
  columns('3', [bar(true, 'Ordered'), bar(true, 'Shipped'), bar(false, 'Delivered')], {
    stack: false,
    gap: 6,
  }),
  spacer(8),
  columns(
    '2',
    [
      [fact('Carrier', v('carrier', 'Standard shipping', bold))],
      [fact('Estimated delivery', v('delivery_date', 'in 3 to 5 days', bold))],
    ],
    { gap: 0, bg: TINT, padding: 16 },
  ),
  spacer(16),
  button('Track your package', '{{tracking_url}}'),
  small(['Tracking can take a few hours to show the first scan.'], 'center'),
  divider(8),
  footer('You are receiving this email about an order you placed.'),
);

const story = (tag: string, title: string, text: string, href: string) => [
  p([badge(tag)]),
  h(2, [title]),
  p([text]),
  p([t('Read more →', bold, color(ACCENT), link(href))]),
];

const newsletter = doc(
  'Three stories worth your time this month.',
  'The monthly digest',
  logo('center'),
  small(['The Monthly Digest · ', v('issue', 'This month')], 'center'),
  h(1, ['What is new this month'], 'center'),
  p(
    [
      'Hi ',
      v('first_name', 'there'),
      ', here are the stories, tips and updates our readers liked most. It takes five minutes to read.',
    ],
    'center',
  ),
  divider(16),
  ...story(
    'Product',
    'A faster way to plan your week',
    'The new planner puts everything due this week on one screen, with smart suggestions for what to tackle first.',
    'https://example.com/blog/planner',
  ),
  divider(16),
  ...story(
    'Guide',
    'Five habits of teams that ship',
    'We asked a hundred teams how they keep momentum. Their answers were surprisingly simple, and easy to copy.',
    'https://example.com/blog/habits',
  ),
  divider(16),
  h(2, ['Quick links']),
  columns(
    '2',
    [
      [
        p([t('Help centre', bold, color(INK), link('https://example.com/help'))]),
        small(['Answers to common questions']),
      ],
      [
        p([t('Community', bold, color(INK), link('https://example.com/community'))]),
        small(['Meet people doing the same work']),
      ],
    ],
    { gap: 12, bg: TINT, padding: 16 },
  ),
  spacer(16),
  signature('Until next month,'),
  divider(16),
  social(),
  footer('You are receiving this email because you subscribed to our newsletter.'),
);

const feature = step;

const announcement = doc(
  'Meet the biggest update we have ever shipped.',
  'Introducing Projects 2.0',
  logo(),
  spacer(8),
  p([badge('New')]),
  h(1, ['Introducing Projects 2.0']),
  p([
    t('Everything you loved, now twice as fast.', bold),
    ' We rebuilt Projects from the ground up around the feedback of thousands of teams like yours.',
  ]),
  button('Try it now', 'https://example.com/projects', { align: 'left' }),
  spacer(8),
  columns(
    '2',
    [
      [...feature('Instant sync', 'Changes appear for everyone the moment they are made, even offline.')],
      [...feature('Timeline view', 'See every deadline on one scrollable timeline, and drag to reschedule.')],
    ],
    { gap: 16, bg: TINT, padding: 16 },
  ),
  columns(
    '2',
    [
      [...feature('Smart templates', 'Start from a template that already knows your workflow.')],
      [...feature('Guest access', 'Invite clients to a single project without giving away the rest.')],
    ],
    { gap: 16, bg: TINT, padding: 16 },
  ),
  quote(
    p([t('“Projects 2.0 cut our weekly planning meeting in half. The timeline alone was worth it.”')]),
    p([t('Maya Chen, Head of Operations at Northwind', bold)]),
  ),
  p([
    'Projects 2.0 is rolling out to every account this week, at no extra cost. ',
    t('See what changed', bold, color(ACCENT), link('https://example.com/changelog')),
    '.',
  ]),
  signature('Happy building,'),
  divider(16),
  social(),
  footer('You are receiving this email because you use our product.'),
);

const invitation = doc(
  'You are invited. Save your seat before they are gone.',
  'You are invited',
  logo(),
  spacer(8),
  p([badge('You are invited')]),
  h(1, ['Design Systems Summit']),
  p([
    'Dear ',
    v('first_name', 'friend'),
    ', join us for an afternoon of talks, workshops and conversations with the people who build the tools we use every day.',
  ]),
  columns(
    '3',
    [
      [fact('Date', v('event_date', 'Thursday, June 12', bold))],
      [fact('Time', v('event_time', '2 to 6 pm', bold))],
      [fact('Where', v('event_place', 'to be announced', bold))],
    ],
    { gap: 0, bg: TINT, padding: 16 },
  ),
  spacer(8),
  button('Reserve your seat', '{{rsvp_url}}'),
  h(2, ['Programme']),
  ul(
    [t('2:00 pm', bold), ' Welcome and opening keynote'],
    [t('3:00 pm', bold), ' Workshops: tokens, theming and accessibility'],
    [t('4:30 pm', bold), ' Panel: scaling a design system'],
    [t('5:30 pm', bold), ' Drinks and conversations'],
  ),
  small(['Seats are limited. Cannot make it? Reply and we will send you the recordings.']),
  signature('Hope to see you there,'),
  divider(16),
  social(),
  footer('You are receiving this invitation because you are on our events list.'),
);

/** The starter gallery, in the order the picker shows it. */
export const STARTER_TEMPLATES: readonly GalleryTemplate[] = [
  {
    id: 'welcome',
    name: 'Welcome',
    category: 'Onboarding',
    description: 'Greet new users with three first steps.',
    document: welcome,
  },
  {
    id: 'email-verification',
    name: 'Email verification',
    category: 'Account',
    description: 'Confirm an address with one button.',
    document: verification,
  },
  {
    id: 'password-reset',
    name: 'Password reset',
    category: 'Account',
    description: 'A secure, expiring reset link.',
    document: passwordReset,
  },
  {
    id: 'receipt',
    name: 'Receipt',
    category: 'Commerce',
    description: 'Order summary with line items and total.',
    document: receipt,
  },
  {
    id: 'shipping-update',
    name: 'Shipping update',
    category: 'Commerce',
    description: 'Progress, carrier and tracking link.',
    document: shipping,
  },
  {
    id: 'newsletter',
    name: 'Newsletter',
    category: 'Marketing',
    description: 'Monthly stories with quick links.',
    document: newsletter,
  },
  {
    id: 'product-announcement',
    name: 'Product announcement',
    category: 'Marketing',
    description: 'Launch a feature with a highlight grid.',
    document: announcement,
  },
  {
    id: 'event-invitation',
    name: 'Event invitation',
    category: 'Events',
    description: 'Date, time, place and RSVP.',
    document: invitation,
  },
];
