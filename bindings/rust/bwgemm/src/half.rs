// SPDX-License-Identifier: MIT
//! The 16-bit storage types of GEMM inputs, as bit patterns with conversions
//! to and from `f32` (round to nearest, ties to even).

/// IEEE 754 binary16 (CUDA's `__half`, `CUDA_R_16F`).
#[repr(transparent)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct F16(pub u16);

/// bfloat16 (CUDA's `__nv_bfloat16`, `CUDA_R_16BF`).
#[repr(transparent)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bf16(pub u16);

/// `value` rounded to nearest, ties to even, after dropping its low `shift` bits.
fn round_shift(value: u32, shift: u32) -> u32 {
    let kept = value >> shift;
    let rest = value & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rest > half || (rest == half && kept & 1 == 1) {
        kept + 1
    } else {
        kept
    }
}

impl F16 {
    pub fn from_f32(x: f32) -> F16 {
        let bits = x.to_bits();
        let sign = ((bits >> 16) & 0x8000) as u16;
        let exp = ((bits >> 23) & 0xff) as i32;
        let mantissa = bits & 0x7f_ffff;
        if exp == 0xff {
            let nan = if mantissa != 0 {
                0x200 | (mantissa >> 13) as u16
            } else {
                0
            };
            return F16(sign | 0x7c00 | nan);
        }
        let e = exp - 127 + 15;
        if e >= 0x1f {
            return F16(sign | 0x7c00);
        }
        if e <= 0 {
            // Subnormal in binary16 (or zero): units of 2^-24.
            if e < -10 {
                return F16(sign);
            }
            return F16(sign | round_shift(mantissa | 0x80_0000, (14 - e) as u32) as u16);
        }
        // A carry out of the mantissa correctly increments the exponent (up to infinity).
        F16(sign | round_shift(((e as u32) << 23) | mantissa, 13) as u16)
    }

    pub fn to_f32(self) -> f32 {
        let h = u32::from(self.0);
        let sign = (h & 0x8000) << 16;
        let exp = (h >> 10) & 0x1f;
        let mantissa = h & 0x3ff;
        match exp {
            0 => {
                let magnitude = mantissa as f32 / 16_777_216.0; // exact: mantissa * 2^-24
                if sign != 0 { -magnitude } else { magnitude }
            }
            0x1f => f32::from_bits(sign | 0x7f80_0000 | (mantissa << 13)),
            _ => f32::from_bits(sign | ((exp + 127 - 15) << 23) | (mantissa << 13)),
        }
    }
}

impl Bf16 {
    pub fn from_f32(x: f32) -> Bf16 {
        let bits = x.to_bits();
        if x.is_nan() {
            return Bf16((bits >> 16) as u16 | 0x40);
        }
        Bf16(round_shift(bits, 16) as u16)
    }

    pub fn to_f32(self) -> f32 {
        f32::from_bits(u32::from(self.0) << 16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_known_values() {
        let cases: &[(f32, u16)] = &[
            (0.0, 0x0000),
            (-0.0, 0x8000),
            (1.0, 0x3c00),
            (-2.0, 0xc000),
            (0.5, 0x3800),
            (65504.0, 0x7bff),
            (65519.0, 0x7bff),
            (65520.0, 0x7c00), // halfway to the next binade: ties to even, infinity
            (f32::INFINITY, 0x7c00),
            (f32::NEG_INFINITY, 0xfc00),
            (1.0 + 1.0 / 2048.0, 0x3c00), // tie, even stays
            (1.0 + 3.0 / 2048.0, 0x3c02), // tie, odd rounds up
            (6.103_515_6e-5, 0x0400),     // smallest normal
            (5.960_464_5e-8, 0x0001),     // smallest subnormal, 2^-24
            (2.980_232_2e-8, 0x0000),     // 2^-25: tie, rounds to even zero
            (4.470_348_4e-8, 0x0001),     // 0.75 * 2^-24
            (1.0e-10, 0x0000),
        ];
        for &(x, bits) in cases {
            assert_eq!(F16::from_f32(x), F16(bits), "F16::from_f32({x:e})");
        }
        assert!(F16::from_f32(f32::NAN).to_f32().is_nan());
    }

    #[test]
    fn f16_round_trips_every_pattern() {
        for bits in 0..=u16::MAX {
            let h = F16(bits);
            let x = h.to_f32();
            if x.is_nan() {
                assert!(F16::from_f32(x).to_f32().is_nan());
            } else {
                assert_eq!(F16::from_f32(x), h, "pattern {bits:#06x} -> {x:e}");
            }
        }
    }

    #[test]
    fn bf16_rounds_to_nearest_even_and_round_trips() {
        assert_eq!(Bf16::from_f32(1.0), Bf16(0x3f80));
        assert_eq!(Bf16::from_f32(f32::from_bits(0x3f80_8000)), Bf16(0x3f80)); // tie, even stays
        assert_eq!(Bf16::from_f32(f32::from_bits(0x3f81_8000)), Bf16(0x3f82)); // tie, odd rounds up
        assert_eq!(Bf16::from_f32(f32::from_bits(0x3f80_8001)), Bf16(0x3f81));
        assert_eq!(Bf16::from_f32(f32::MAX), Bf16(0x7f80)); // rounds to infinity
        for bits in 0..=u16::MAX {
            let x = Bf16(bits).to_f32();
            if x.is_nan() {
                assert!(Bf16::from_f32(x).to_f32().is_nan());
            } else {
                assert_eq!(Bf16::from_f32(x), Bf16(bits));
            }
        }
    }
}
