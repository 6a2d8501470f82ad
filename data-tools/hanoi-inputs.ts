/** Inputs of the default central-Hanoi pack, oldest first (later inputs win for the same element). */
export const HANOI_INPUTS = [
  'hanoi-center-all-2023.overpass.json',
  'hanoi-quoctugiam.osm',
  'hanoi-hospitals-2024.overpass.json',
  'hanoi-restaurants-2024.overpass.json',
  'hanoi-central-drive-2025.overpass.json',
];
