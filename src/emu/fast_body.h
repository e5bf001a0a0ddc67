/* fast_body.h -- the fast ALU handlers, included by fast.c once per host ISA level with FB_SFX
** (name suffix) and FB_ATTR (target attribute) defined.  The bodies are the same source for every
** level; only the vector units the compiler may use differ, so the results are the same bits
** (IEEE operations, fmaf / fma where the operation is fused, no flush-to-zero anywhere).
*/
#define FB_CAT2(a, b) a##b
#define FB_CAT(a, b) FB_CAT2(a, b)
#define FB_NAME(n) FB_CAT(n, FB_SFX)

/* 16 hf lanes to float and back: the host's F16C converters where the level has them (exact
** widening; narrowing to nearest even with the NaN rule of f_to_hf: checked over every float),
** else the bit tricks.  A signalling NaN comes in quieted, which no result can tell: every
** operation quiets it on the way out as the generic path does. */
FB_ATTR static inline void FB_NAME(hf_ld16)(float *o, const uint16_t *p) {
#if FB_F16C && FB_VEC512 /* one 512-bit store: the loop's 512-bit load then forwards from it */
    _mm512_storeu_ps(o, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p)));
#elif FB_F16C
    _mm256_storeu_ps(o, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p)));
    _mm256_storeu_ps(o + 8, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p + 8))));
#else
    for (unsigned i = 0; i < 16; i++) o[i] = hf_to_f(p[i]);
#endif
}
FB_ATTR static inline void FB_NAME(hf_sv16)(uint16_t *p, const float *o) {
#if FB_F16C && FB_VEC512
    _mm256_storeu_si256((__m256i *)(void *)p,
                        _mm512_cvtps_ph(_mm512_loadu_ps(o), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#elif FB_F16C
    _mm_storeu_si128((__m128i *)(void *)p,
                     _mm256_cvtps_ph(_mm256_loadu_ps(o), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    _mm_storeu_si128((__m128i *)(void *)(p + 8),
                     _mm256_cvtps_ph(_mm256_loadu_ps(o + 8), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#else
    for (unsigned i = 0; i < 16; i++) p[i] = f_to_hf(o[i]);
#endif
}

/* 16 bf lanes to float (exact: the bits shifted up); at 512 bits one store, as for hf. */
FB_ATTR static inline void FB_NAME(bf_ld16)(float *o, const uint16_t *p) {
#if FB_VEC512
    __m512i w = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p));
    _mm512_storeu_ps(o, _mm512_castsi512_ps(_mm512_slli_epi32(w, 16)));
#else
    for (unsigned i = 0; i < 16; i++) o[i] = bf_to_f(p[i]);
#endif
}

FB_ATTR static inline void FB_NAME(bf_sv16)(uint16_t *p, const float *o) {
#if FB_VEC512 /* f_to_bf on 16 lanes at once */
    __m512i b = _mm512_castps_si512(_mm512_loadu_ps(o));
    __mmask16 nan =
        _mm512_cmpgt_epu32_mask(_mm512_and_si512(b, _mm512_set1_epi32(0x7FFFFFFF)), _mm512_set1_epi32(0x7F800000));
    __m512i odd = _mm512_and_si512(_mm512_srli_epi32(b, 16), _mm512_set1_epi32(1));
    __m512i rne = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(b, _mm512_set1_epi32(0x7FFF)), odd), 16);
    __m512i quiet = _mm512_or_si512(_mm512_srli_epi32(b, 16), _mm512_set1_epi32(0x40));
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(nan, rne, quiet)));
#else
    for (unsigned i = 0; i < 16; i++) p[i] = f_to_bf(o[i]);
#endif
}

#if FB_VEC512
/* 16 lanes of a*b + c rounded to odd in float, for bf mad (a 24-bit odd rounding narrows to
** nearest even as the exact sum would): the fma rounded toward zero (embedded rounding, MXCSR
** untouched), its last bit set where the fmas rounded down and up differ (the sum is not a
** float).  Returns the NaN lanes, which the caller computes by its odd path for that path's NaN
** bits.  jit.c fused_mad does the same. */
FB_ATTR static inline unsigned FB_NAME(mad_odd16)(float *o, const float *a, const float *b, const float *c) {
    __m512 x = _mm512_loadu_ps(a), y = _mm512_loadu_ps(b), z = _mm512_loadu_ps(c);
    __m512 rd = _mm512_fmadd_round_ps(x, y, z, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    __m512 ru = _mm512_fmadd_round_ps(x, y, z, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
    __m512i rz = _mm512_castps_si512(_mm512_fmadd_round_ps(x, y, z, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC));
    __mmask16 inexact = _mm512_cmp_ps_mask(rd, ru, _CMP_NEQ_OQ);
    _mm512_storeu_si512(o, _mm512_mask_or_epi32(rz, inexact, rz, _mm512_set1_epi32(1)));
    return _mm512_cmp_ps_mask(rd, rd, _CMP_UNORD_Q);
}
#endif

/* One handler: operation EXPR over compute values a, b, c of type TY (fast.c's type traits:
** TY_ST storage, TY_CT compute, TY_LD / TY_SV convert, TY_MOD modifiers, TY_SAT saturation).
** MODS: sources carry modifiers (applied per lane); SAT: the destination saturates.
** hf (where the level has F16C) and bf run 16 contiguous lanes as a block: sources widened to
** float arrays, the lanes computed there, the results narrowed at once; FAST may stand for EXPR
** in the block where SAFE (of a, b, c and FAST's result r_) holds: a lane where it does not is
** computed again by EXPR.  PRE runs first on the block's float arrays, modifiers applied (it may
** fill O_ and nan_ for FAST and SAFE). */
#define FB_HANDLER(NAME, TY, NSRC, EXPR, MODS, SAT) FB_HANDLER_FS(NAME, TY, NSRC, EXPR, EXPR, 1, (void)0, MODS, SAT)
#define FB_BLOCK(TY) (TY##_IS_HF ? FB_F16C : TY##_IS_BF)
#define FB_LD16(TY, o, p)                                                              \
    do {                                                                               \
        if (TY##_IS_HF) FB_NAME(hf_ld16)(o, (const uint16_t *)(const void *)(p));      \
        else if (TY##_IS_BF) FB_NAME(bf_ld16)(o, (const uint16_t *)(const void *)(p)); \
        else                                                                           \
            for (unsigned i_ = 0; i_ < 16; i_++) o[i_] = (float)TY##_LD((p)[i_]);      \
    } while (0)
#define FB_HANDLER_FS(NAME, TY, NSRC, EXPR, FAST, SAFE, PRE, MODS, SAT)                                         \
    FB_ATTR static void FB_NAME(NAME)(emu_thread * t, const emu_op *op) {                                       \
        if (op->fenv && emu_cr0_modes(t) != EMU_CR0_FAST) {                                                     \
            emu_alu_generic(t, op); /* rounding / denormal modes: the %cr0-aware path */                        \
            return;                                                                                             \
        }                                                                                                       \
        typedef TY##_ST st_t;                                                                                   \
        typedef TY##_CT ct_t;                                                                                   \
        uint32_t mask = emu_chen(t, op);                                                                        \
        unsigned n = op->exec;                                                                                  \
        st_t *d = (st_t *)(void *)(t->file + op->dst.off);                                                      \
        SRC(st_t, 0, s0, k0);                                                                                   \
        SRC(st_t, NSRC > 1 ? 1 : 0, s1, k1);                                                                    \
        SRC(st_t, NSRC > 2 ? 2 : 0, s2, k2);                                                                    \
        unsigned m0 = MODS ? op->src[0].mod : 0, m1 = MODS && NSRC > 1 ? op->src[1].mod : 0,                    \
                 m2 = MODS && NSRC > 2 ? op->src[2].mod : 0;                                                    \
        (void)s1, (void)k1, (void)s2, (void)k2, (void)m0, (void)m1, (void)m2;                                   \
        _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wunused-variable\"") _Pragma(         \
            "GCC diagnostic ignored \"-Wunused-but-set-variable\"") if (mask == emu_lanes_mask(n) && n == 16 && \
                                                                        k0 == 1 && k1 == 1 && k2 == 1) {        \
            if (FB_BLOCK(TY)) {                                                                                 \
                float A_[16], B_[16], C_[16], R_[16];                                                           \
                FB_LD16(TY, A_, s0);                                                                            \
                if (NSRC > 1) FB_LD16(TY, B_, s1);                                                              \
                if (NSRC > 2) FB_LD16(TY, C_, s2);                                                              \
                const float *pb_ = NSRC > 1 ? B_ : A_, *pc_ = NSRC > 2 ? C_ : A_;                               \
                if (MODS)                                                                                       \
                    for (unsigned i = 0; i < 16; i++) {                                                         \
                        A_[i] = (float)TY##_MOD((ct_t)A_[i], m0);                                               \
                        if (NSRC > 1) B_[i] = (float)TY##_MOD((ct_t)B_[i], m1);                                 \
                        if (NSRC > 2) C_[i] = (float)TY##_MOD((ct_t)C_[i], m2);                                 \
                    }                                                                                           \
                unsigned unsafe_ = 0, nan_ = 0;                                                                 \
                float O_[16];                                                                                   \
                PRE;                                                                                            \
                for (unsigned i = 0; i < 16; i++) {                                                             \
                    ct_t a = (ct_t)A_[i], b = (ct_t)pb_[i], c = (ct_t)pc_[i];                                   \
                    ct_t r_ = (FAST);                                                                           \
                    unsafe_ |= !(SAFE);                                                                         \
                    if (SAT) r_ = TY##_SAT(r_);                                                                 \
                    R_[i] = (float)r_;                                                                          \
                }                                                                                               \
                if (unsafe_)                                                                                    \
                    for (unsigned i = 0; i < 16; i++) {                                                         \
                        ct_t a = (ct_t)A_[i], b = (ct_t)pb_[i], c = (ct_t)pc_[i];                               \
                        ct_t r_ = (FAST);                                                                       \
                        if (SAFE) continue;                                                                     \
                        r_ = (EXPR);                                                                            \
                        if (SAT) r_ = TY##_SAT(r_);                                                             \
                        R_[i] = (float)r_;                                                                      \
                    }                                                                                           \
                if (TY##_IS_HF) FB_NAME(hf_sv16)((uint16_t *)(void *)d, R_);                                    \
                else if (TY##_IS_BF) FB_NAME(bf_sv16)((uint16_t *)(void *)d, R_);                               \
                else                                                                                            \
                    for (unsigned i = 0; i < 16; i++) d[i] = TY##_SV((ct_t)R_[i]);                              \
            } else                                                                                              \
                for (unsigned i = 0; i < 16; i++) FB_LANE(TY, EXPR, MODS, SAT, i, i, i, i)                      \
        }                                                                                                       \
        else if (!MODS && mask == emu_lanes_mask(n) && n == 16 && k0 == 1 && k1 == 0 && k2 == 1) {              \
            for (unsigned i = 0; i < 16; i++) FB_LANE(TY, EXPR, MODS, SAT, i, i, 0, i)                          \
        }                                                                                                       \
        else if (!MODS && mask == emu_lanes_mask(n) && n == 16 && k0 == 2 && k1 == 2 && k2 == 2) {              \
            for (unsigned i = 0; i < 16; i++) FB_LANE(TY, EXPR, MODS, SAT, i, 2 * i, 2 * i, 2 * i)              \
        }                                                                                                       \
        else if (mask == emu_lanes_mask(n)) {                                                                   \
            for (unsigned i = 0; i < n; i++) FB_LANE(TY, EXPR, MODS, SAT, i, i *k0, i *k1, i *k2)               \
        }                                                                                                       \
        else {                                                                                                  \
            for (unsigned i = 0; i < n; i++)                                                                    \
                if (mask >> i & 1) FB_LANE(TY, EXPR, MODS, SAT, i, i *k0, i *k1, i *k2)                         \
        }                                                                                                       \
        _Pragma("GCC diagnostic pop") t->pc++;                                                                  \
    }

#define FB_LANE(TY, EXPR, MODS, SAT, I, J0, J1, J2)                              \
    {                                                                            \
        ct_t a = TY##_LD(s0[J0]), b = TY##_LD(s1[J1]), c = TY##_LD(s2[J2]);      \
        if (MODS) a = TY##_MOD(a, m0), b = TY##_MOD(b, m1), c = TY##_MOD(c, m2); \
        ct_t r_ = (EXPR);                                                        \
        if (SAT) r_ = TY##_SAT(r_);                                              \
        d[I] = TY##_SV(r_);                                                      \
    }

/* Every operation of fast_ops.h on every type: plain and with modifiers; floats also saturating,
** and both.  An operation's expressions: FB_INT_<name>(TY) on integers; FB_FLT_<name>(TY) on
** floats, as EXPR, FAST, SAFE, PRE of FB_HANDLER_FS (FB_FLT_EXACT(EXPR) where FAST is EXPR). */
#define FB_INT_mov(TY) a
#define FB_INT_add(TY) (ct_t)(a + b)
#define FB_INT_mul(TY) (ct_t)(a * b)
#define FB_INT_mad(TY) (ct_t)(a * b + c)
#define FB_INT_add3(TY) (ct_t)(a + b + c)
#define FB_INT_min(TY) TY##_LT(a, b) ? a : b
#define FB_INT_max(TY) TY##_LT(b, a) ? a : b
#define FB_INT_and(TY) a &b
#define FB_INT_or(TY) a | b
#define FB_INT_xor(TY) a ^ b
#define FB_INT_shl(TY) (ct_t)(a << (b & TY##_SHM))
#define FB_INT_shr(TY) (ct_t)((a & TY##_KEEP) >> (b & TY##_SHM))
#define FB_INT_asr(TY) TY##_ASR(a, b &TY##_SHM)
#define FB_INT_HANDLERS(TY, F, name, nsrc, flt, wide_mods, shift) \
    FB_HANDLER(TY##_##name, TY, nsrc, FB_INT_##name(TY), 0, 0)    \
    FB_HANDLER(TY##_##name##_m, TY, nsrc, FB_INT_##name(TY), 1, 0)
#define FB_INT_PLAIN(TY, F, name, nsrc, flt, wide_mods, shift) FB_NAME(TY##_##name),
#define FB_INT_MODS(TY, F, name, nsrc, flt, wide_mods, shift) FB_NAME(TY##_##name##_m),
#define FB_OPS_INT(TY)                                           \
    EMU_FAST_OPS(FB_INT_HANDLERS, TY)                            \
    static const emu_handler FB_NAME(TY##_row)[2][FO__COUNT] = { \
        {EMU_FAST_OPS(FB_INT_PLAIN, TY)},                        \
        {EMU_FAST_OPS(FB_INT_MODS, TY)},                         \
    };

#define FB_FLT_EXACT(EXPR) EXPR, EXPR, 1, (void)0
#define FB_FLT_mov(TY) FB_FLT_EXACT(a)
#define FB_FLT_add(TY) FB_FLT_EXACT((ct_t)(a + b))
#define FB_FLT_mul(TY) FB_FLT_EXACT((ct_t)(a * b))
#define FB_FLT_mad(TY) FB_MAD_##TY
/* MIN_MAX.md: a NaN operand (signalling too) gives the other one; equal operands (+0, -0) give
** src0, as C's fmin / fmax (the generic path) do */
#define FB_FLT_min(TY) FB_FLT_EXACT(isnan(b) ? a : isnan(a) ? b : b < a ? b : a)
#define FB_FLT_max(TY) FB_FLT_EXACT(isnan(b) ? a : isnan(a) ? b : b > a ? b : a)
#define FB_MAD_F FB_FLT_EXACT(fmaf(a, b, c))
#define FB_MAD_DF FB_FLT_EXACT(fma(a, b, c))
/* hf mad: the float sum rounded to odd per lane (measured faster here than mad_odd16 or a checked
** float fma, which the compiled tier uses) */
#define FB_MAD_HF FB_FLT_EXACT(hf_mad_odd(a, b, c))
#if FB_VEC512 /* bf mad rounded to odd by the directed fmas (FB_NAME(mad_odd16)); NaN lanes by EXPR */
#define FB_MAD_BF bf_mad_odd(a, b, c), O_[i], !(nan_ >> i & 1), nan_ = FB_NAME(mad_odd16)(O_, A_, pb_, pc_)
#elif FB_FMA /* bf mad: the float fma, narrowed, where fast.c bf_fused_ok allows */
#define FB_MAD_BF bf_mad_odd(a, b, c), fmaf(a, b, c), bf_fused_ok(a, b, c, r_), (void)0
#else
#define FB_MAD_BF bf_mad_odd(a, b, c), f_mad_odd(a, b, c), bf_product_exact(a, b), (void)0
#endif
#define FB_FLT_VARIANTS(...) FB_FLT_VARIANTS_FS(__VA_ARGS__) /* the expressions: 4 arguments */
#define FB_FLT_VARIANTS_FS(TY, OP, NSRC, EXPR, FAST, SAFE, PRE)         \
    FB_HANDLER_FS(TY##_##OP, TY, NSRC, EXPR, FAST, SAFE, PRE, 0, 0)     \
    FB_HANDLER_FS(TY##_##OP##_m, TY, NSRC, EXPR, FAST, SAFE, PRE, 1, 0) \
    FB_HANDLER_FS(TY##_##OP##_s, TY, NSRC, EXPR, FAST, SAFE, PRE, 0, 1) \
    FB_HANDLER_FS(TY##_##OP##_ms, TY, NSRC, EXPR, FAST, SAFE, PRE, 1, 1)
#define FB_FLT_HANDLERS(TY, F, name, nsrc, flt, wide_mods, shift) \
    EMU_FAST_IF_##flt(FB_FLT_VARIANTS(TY, name, nsrc, FB_FLT_##name(TY)))
#define FB_FLT_ROW(TY, F, name, nsrc, flt, wide_mods, shift) \
    EMU_FAST_IF_##flt(                                       \
        {FB_NAME(TY##_##name), FB_NAME(TY##_##name##_m), FB_NAME(TY##_##name##_s), FB_NAME(TY##_##name##_ms)}, )
#define FB_OPS_FLT(TY)                \
    EMU_FAST_OPS(FB_FLT_HANDLERS, TY) \
    static const emu_handler FB_NAME(TY##_frow)[FO__FLT][4] = {EMU_FAST_OPS(FB_FLT_ROW, TY)};

FB_OPS_INT(B)
FB_OPS_INT(UB)
FB_OPS_INT(W)
FB_OPS_INT(UW)
FB_OPS_INT(D)
FB_OPS_INT(UD)
FB_OPS_INT(Q)
FB_OPS_INT(UQ)
FB_OPS_FLT(F)
FB_OPS_FLT(DF)
FB_OPS_FLT(HF)
FB_OPS_FLT(BF)
#undef FB_MAD_BF /* the next level's may differ */

/* CMP into a predicate: the relation's C operator per lane (IEEE: with a NaN only ne holds),
** the bits merged into the predicate at the op's mask offset. */
#define FB_CMP(TY)                                                                                                     \
    FB_ATTR static void FB_NAME(TY##_cmp)(emu_thread * t, const emu_op *op) {                                          \
        if (op->fenv && emu_cr0_modes(t) != EMU_CR0_FAST) {                                                            \
            emu_cmp_generic(t, op); /* denormal flushing */                                                            \
            return;                                                                                                    \
        }                                                                                                              \
        typedef TY##_ST st_t;                                                                                          \
        uint32_t mask = emu_chen(t, op), bits = 0;                                                                     \
        unsigned n = op->exec;                                                                                         \
        SRC(st_t, 0, s0, k0);                                                                                          \
        SRC(st_t, 1, s1, k1);                                                                                          \
        switch (op->cond & 7) {                                                                                        \
        case 0:                                                                                                        \
            for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(TY##_LD(s0[i * k0]) == TY##_LD(s1[i * k1])) << i;      \
            break;                                                                                                     \
        case 1:                                                                                                        \
            for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(TY##_LD(s0[i * k0]) != TY##_LD(s1[i * k1])) << i;      \
            break;                                                                                                     \
        case 2:                                                                                                        \
            for (unsigned i = 0; i < n; i++) bits |= (uint32_t)TY##_LT(TY##_LD(s1[i * k1]), TY##_LD(s0[i * k0])) << i; \
            break;                                                                                                     \
        case 3:                                                                                                        \
            for (unsigned i = 0; i < n; i++) bits |= (uint32_t)TY##_LE(TY##_LD(s1[i * k1]), TY##_LD(s0[i * k0])) << i; \
            break;                                                                                                     \
        case 4:                                                                                                        \
            for (unsigned i = 0; i < n; i++) bits |= (uint32_t)TY##_LT(TY##_LD(s0[i * k0]), TY##_LD(s1[i * k1])) << i; \
            break;                                                                                                     \
        default:                                                                                                       \
            for (unsigned i = 0; i < n; i++) bits |= (uint32_t)TY##_LE(TY##_LD(s0[i * k0]), TY##_LD(s1[i * k1])) << i; \
            break;                                                                                                     \
        }                                                                                                              \
        unsigned b = op->dst.bitoff;                                                                                   \
        uint32_t m = b < 32 ? mask << b : 0;                                                                           \
        t->pred[op->dst.off] = (t->pred[op->dst.off] & ~m) | ((b < 32 ? bits << b : 0) & m);                           \
        t->pc++;                                                                                                       \
    }
FB_CMP(F)
FB_CMP(D)
FB_CMP(UD)
FB_CMP(W)
FB_CMP(UW)
FB_CMP(HF)

static const fast_set FB_NAME(fast_set_) = {
    {FB_NAME(B_row), FB_NAME(UB_row), FB_NAME(W_row), FB_NAME(UW_row), FB_NAME(D_row), FB_NAME(UD_row), FB_NAME(Q_row),
     FB_NAME(UQ_row)},
    {FB_NAME(F_frow), FB_NAME(DF_frow), FB_NAME(HF_frow), FB_NAME(BF_frow)},
    {FB_NAME(F_cmp), FB_NAME(D_cmp), FB_NAME(UD_cmp), FB_NAME(W_cmp), FB_NAME(UW_cmp), FB_NAME(HF_cmp)},
};

#undef FB_NAME
#undef FB_CAT
#undef FB_CAT2
