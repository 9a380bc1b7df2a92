import type { RgbaImage } from "../../../src/media/types";

export interface EquivalenceCase {
  id: string;
  fast: boolean;
  image: RgbaImage;
  /** The payload (hex) a marked case carries. */
  payload?: string;
}
export interface EquivalenceOutcome {
  status: string;
  payload: string | null;
  z: number;
  peakZ: number;
  scale: number;
}
export function equivalenceCases(
  embed: (image: RgbaImage, payload: Uint8Array, strength: "subtle" | "balanced" | "robust") => RgbaImage | null,
  options?: { only?: "all" | "fast" },
): AsyncGenerator<EquivalenceCase>;
export function outcome(
  wm: { detect(image: RgbaImage): unknown; lastDetect: { syncZ: number; peakSyncZ: number; scaleRatio: number } },
  image: RgbaImage,
): EquivalenceOutcome;
export function embedPinCases(): { id: string; image: RgbaImage; strength: "subtle" | "balanced" | "robust"; payload: Uint8Array }[];
