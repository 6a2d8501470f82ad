/**
 * Turn-by-turn steps as the REST API gives them: the route's manoeuvres (route/maneuvers.ts) worded from a table
 * (Vietnamese, the online service's language; another language is another table of the same shape) into Google's
 * step objects.
 */
import type { Maneuver, TurnModifier } from '../route/maneuvers.js';
import { distanceText, durationText, type TextValue } from '../text/text-value.js';

/** One Google-style route step. */
export interface Step {
  html_instructions: string;
  /** Absent on the first step, as in Google's answers. */
  maneuver?: string;
  distance: TextValue;
  duration: TextValue;
  start_location: { lat: number; lng: number };
  end_location: { lat: number; lng: number };
  polyline: { points: string };
  travel_mode: string;
}

/** The words of one language. `name` arrives already marked up (`<b>…</b>`), '' for a road without a name. */
export interface GuidanceWords {
  /** Compass points from north clockwise (8). */
  compass: readonly string[];
  depart(compass: string, name: string): string;
  turn(modifier: TurnModifier, name: string): string;
  roundabout(exit: number, name: string): string;
  uturn(name: string): string;
  straight(name: string): string;
  arrive: string;
}

/**
 * Vietnamese, as the online service words its steps (the default of formatSteps; kept exported as the model for
 * another language's table).
 * @public
 */
export const VI: GuidanceWords = {
  compass: ['Bắc', 'Đông Bắc', 'Đông', 'Đông Nam', 'Nam', 'Tây Nam', 'Tây', 'Tây Bắc'],
  depart: (compass, name) => `Bắt đầu đi về hướng <b>${compass}</b>${name ? ` trên ${name}` : ''}`,
  turn: (modifier, name) => {
    const side = modifier.endsWith('right') ? 'phải' : 'trái';
    const verb = modifier.startsWith('slight')
      ? `Chếch sang ${side}`
      : modifier.startsWith('sharp')
        ? `Rẽ ngoặt sang ${side}`
        : `Rẽ ${side}`;
    return verb + (name ? ` vào ${name}` : '');
  },
  roundabout: (exit, name) => `Tại vòng xuyến, đi theo lối ra thứ ${exit}${name ? ` vào ${name}` : ''}`,
  uturn: (name) => `Quay đầu${name ? ` vào ${name}` : ''}`,
  straight: (name) => `Tiếp tục đi thẳng${name ? ` vào ${name}` : ''}`,
  arrive: 'Bạn đã đến điểm đích',
};

/** Google's `maneuver` of a manoeuvre (right-hand traffic: U-turns to the left, roundabouts to the right). */
function maneuverName(m: Maneuver): string | undefined {
  switch (m.kind) {
    case 'depart':
      return undefined;
    case 'turn':
      return `turn-${m.modifier}`;
    case 'roundabout':
      return 'roundabout-right';
    case 'uturn':
      return 'uturn-left';
    default:
      return m.kind;
  }
}

/** The instruction of a manoeuvre in the given words. */
function instruction(m: Maneuver, words: GuidanceWords): string {
  const name = m.name ? `<b>${m.name}</b>` : '';
  switch (m.kind) {
    case 'depart':
      return words.depart(words.compass[m.compass ?? 0]!, name);
    case 'turn':
      return words.turn(m.modifier!, name);
    case 'roundabout':
      return words.roundabout(m.exit ?? 1, name);
    case 'uturn':
      return words.uturn(name);
    case 'straight':
      return words.straight(name);
    case 'arrive':
      return words.arrive;
  }
}

/**
 * Google-style steps of a leg's manoeuvres.
 * @param travelMode Google's travel mode of the vehicle (DRIVING, TWO_WHEELER)
 * @param words the language of the instructions (default Vietnamese)
 */
export function formatSteps(maneuvers: readonly Maneuver[], travelMode: string, words: GuidanceWords = VI): Step[] {
  // One fixed shape: `maneuver` always present (undefined on the first step, which JSON leaves out) and last, where
  // it was added before, so answers are unchanged and the code reading steps meets one map. Pushed, not
  // `maneuvers.map` (see encodePolylines).
  const steps: Step[] = [];
  for (const m of maneuvers)
    steps.push({
      html_instructions: instruction(m, words),
      distance: distanceText(m.distance),
      duration: durationText(m.duration),
      start_location: m.start,
      end_location: m.end,
      polyline: { points: m.polyline },
      travel_mode: travelMode,
      maneuver: maneuverName(m),
    });
  return steps;
}
