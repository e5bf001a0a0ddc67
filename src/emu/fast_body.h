/* fast_body.h -- the fast ALU handlers, included by fast.c once per host ISA level with FB_SFX
** (name suffix) and FB_ATTR (target attribute) defined.  The bodies are the same source for every
** level; only the vector units the compiler may use differ, so the results are the same bits
** (IEEE operations, fmaf / fma where the operation is fused, no flush-to-zero anywhere).
*/
#define FB_CAT2(a, b) a##b
#define FB_CAT(a, b) FB_CAT2(a, b)
#define FB_NAME(n) FB_CAT(n, FB_SFX)

/* One handler: operation EXPR over compute values a, b, c of type TY (fast.c's type traits:
** TY_ST storage, TY_CT compute, TY_LD / TY_SV convert, TY_MOD modifiers, TY_SAT saturation).
** MODS: sources carry modifiers (applied per lane); SAT: the destination saturates. */
#define FB_HANDLER(NAME, TY, NSRC, EXPR, MODS, SAT)                                            \
    FB_ATTR static void FB_NAME(NAME)(emu_thread *t, const emu_op *op) {                       \
        if (op->fenv && emu_cr0_modes(t) != EMU_CR0_FAST) {                                    \
            emu_alu_generic(t, op); /* rounding / denormal modes: the %cr0-aware path */       \
            return;                                                                            \
        }                                                                                      \
        typedef TY##_ST st_t;                                                                  \
        typedef TY##_CT ct_t;                                                                  \
        uint32_t mask = emu_chen(t, op);                                                       \
        unsigned n = op->exec;                                                                 \
        st_t *d = (st_t *)(void *)(t->file + op->dst.off);                                     \
        SRC(st_t, 0, s0, k0);                                                                  \
        SRC(st_t, NSRC > 1 ? 1 : 0, s1, k1);                                                   \
        SRC(st_t, NSRC > 2 ? 2 : 0, s2, k2);                                                   \
        unsigned m0 = MODS ? op->src[0].mod : 0, m1 = MODS && NSRC > 1 ? op->src[1].mod : 0,   \
                 m2 = MODS && NSRC > 2 ? op->src[2].mod : 0;                                   \
        (void)s1, (void)k1, (void)s2, (void)k2, (void)m0, (void)m1, (void)m2;                  \
        _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wunused-variable\"") \
        _Pragma("GCC diagnostic ignored \"-Wunused-but-set-variable\"")                        \
        if (mask == emu_lanes_mask(n) && n == 16 && k0 == 1 && k1 == 1 && k2 == 1) {           \
            for (unsigned i = 0; i < 16; i++) FB_LANE(TY, EXPR, MODS, SAT, i, i, i, i)         \
        } else if (!MODS && mask == emu_lanes_mask(n) && n == 16 && k0 == 1 && k1 == 0 && k2 == 1) { \
            for (unsigned i = 0; i < 16; i++) FB_LANE(TY, EXPR, MODS, SAT, i, i, 0, i)         \
        } else if (!MODS && mask == emu_lanes_mask(n) && n == 16 && k0 == 2 && k1 == 2 && k2 == 2) { \
            for (unsigned i = 0; i < 16; i++) FB_LANE(TY, EXPR, MODS, SAT, i, 2 * i, 2 * i, 2 * i) \
        } else if (mask == emu_lanes_mask(n)) {                                                \
            for (unsigned i = 0; i < n; i++) FB_LANE(TY, EXPR, MODS, SAT, i, i * k0, i * k1, i * k2) \
        } else {                                                                               \
            for (unsigned i = 0; i < n; i++)                                                   \
                if (mask >> i & 1) FB_LANE(TY, EXPR, MODS, SAT, i, i * k0, i * k1, i * k2)     \
        }                                                                                      \
        _Pragma("GCC diagnostic pop")                                                          \
        t->pc++;                                                                               \
    }

#define FB_LANE(TY, EXPR, MODS, SAT, I, J0, J1, J2)                                            \
    {                                                                                          \
        ct_t a = TY##_LD(s0[J0]), b = TY##_LD(s1[J1]), c = TY##_LD(s2[J2]);                    \
        if (MODS) a = TY##_MOD(a, m0), b = TY##_MOD(b, m1), c = TY##_MOD(c, m2);               \
        ct_t r_ = (EXPR);                                                                      \
        if (SAT) r_ = TY##_SAT(r_);                                                            \
        d[I] = TY##_SV(r_);                                                                    \
    }

/* Every operation on every type, plain, with modifiers, saturating (floats), both. */
#define FB_OPS_INT(TY)                                                                         \
    FB_HANDLER(TY##_mov, TY, 1, a, 0, 0) FB_HANDLER(TY##_mov_m, TY, 1, a, 1, 0)                \
    FB_HANDLER(TY##_add, TY, 2, (ct_t)(a + b), 0, 0) FB_HANDLER(TY##_add_m, TY, 2, (ct_t)(a + b), 1, 0) \
    FB_HANDLER(TY##_mul, TY, 2, (ct_t)(a * b), 0, 0) FB_HANDLER(TY##_mul_m, TY, 2, (ct_t)(a * b), 1, 0) \
    FB_HANDLER(TY##_mad, TY, 3, (ct_t)(a * b + c), 0, 0) FB_HANDLER(TY##_mad_m, TY, 3, (ct_t)(a * b + c), 1, 0) \
    FB_HANDLER(TY##_min, TY, 2, TY##_LT(a, b) ? a : b, 0, 0)                                   \
    FB_HANDLER(TY##_min_m, TY, 2, TY##_LT(a, b) ? a : b, 1, 0)                                 \
    FB_HANDLER(TY##_max, TY, 2, TY##_LT(b, a) ? a : b, 0, 0)                                   \
    FB_HANDLER(TY##_max_m, TY, 2, TY##_LT(b, a) ? a : b, 1, 0)                                 \
    FB_HANDLER(TY##_and, TY, 2, a & b, 0, 0) FB_HANDLER(TY##_and_m, TY, 2, a & b, 1, 0)        \
    FB_HANDLER(TY##_or, TY, 2, a | b, 0, 0) FB_HANDLER(TY##_or_m, TY, 2, a | b, 1, 0)          \
    FB_HANDLER(TY##_xor, TY, 2, a ^ b, 0, 0) FB_HANDLER(TY##_xor_m, TY, 2, a ^ b, 1, 0)        \
    FB_HANDLER(TY##_shl, TY, 2, (ct_t)(a << (b & TY##_SHM)), 0, 0)                             \
    FB_HANDLER(TY##_shl_m, TY, 2, (ct_t)(a << (b & TY##_SHM)), 1, 0)                           \
    FB_HANDLER(TY##_shr, TY, 2, (ct_t)((a & TY##_KEEP) >> (b & TY##_SHM)), 0, 0)               \
    FB_HANDLER(TY##_shr_m, TY, 2, (ct_t)((a & TY##_KEEP) >> (b & TY##_SHM)), 1, 0)             \
    FB_HANDLER(TY##_asr, TY, 2, TY##_ASR(a, b & TY##_SHM), 0, 0)                               \
    FB_HANDLER(TY##_asr_m, TY, 2, TY##_ASR(a, b & TY##_SHM), 1, 0)                             \
    static const emu_handler FB_NAME(TY##_row)[2][FO__COUNT] = {                               \
        {FB_NAME(TY##_mov), FB_NAME(TY##_add), FB_NAME(TY##_mul), FB_NAME(TY##_mad), FB_NAME(TY##_min), \
         FB_NAME(TY##_max), FB_NAME(TY##_and), FB_NAME(TY##_or), FB_NAME(TY##_xor), FB_NAME(TY##_shl), \
         FB_NAME(TY##_shr), FB_NAME(TY##_asr)},                                                \
        {FB_NAME(TY##_mov_m), FB_NAME(TY##_add_m), FB_NAME(TY##_mul_m), FB_NAME(TY##_mad_m),   \
         FB_NAME(TY##_min_m), FB_NAME(TY##_max_m), FB_NAME(TY##_and_m), FB_NAME(TY##_or_m),    \
         FB_NAME(TY##_xor_m), FB_NAME(TY##_shl_m), FB_NAME(TY##_shr_m), FB_NAME(TY##_asr_m)},  \
    };

#define FB_FLT_VARIANTS(TY, OP, NSRC, EXPR)                                                    \
    FB_HANDLER(TY##_##OP, TY, NSRC, EXPR, 0, 0) FB_HANDLER(TY##_##OP##_m, TY, NSRC, EXPR, 1, 0) \
    FB_HANDLER(TY##_##OP##_s, TY, NSRC, EXPR, 0, 1) FB_HANDLER(TY##_##OP##_ms, TY, NSRC, EXPR, 1, 1)
#define FB_FLT_ROW(TY, OP)                                                                     \
    {FB_NAME(TY##_##OP), FB_NAME(TY##_##OP##_m), FB_NAME(TY##_##OP##_s), FB_NAME(TY##_##OP##_ms)}
#define FB_OPS_FLT(TY, MAD)                                                                    \
    FB_FLT_VARIANTS(TY, mov, 1, a)                                                             \
    FB_FLT_VARIANTS(TY, add, 2, (ct_t)(a + b))                                                 \
    FB_FLT_VARIANTS(TY, mul, 2, (ct_t)(a * b))                                                 \
    FB_FLT_VARIANTS(TY, mad, 3, MAD(a, b, c))                                                  \
    /* MIN_MAX.md: a NaN operand (signalling too) gives the other one; equal operands (+0, -0)   \
    ** give src0, as C's fmin / fmax (the generic path) do */                                 \
    FB_FLT_VARIANTS(TY, min, 2, isnan(b) ? a : isnan(a) ? b : b < a ? b : a)                   \
    FB_FLT_VARIANTS(TY, max, 2, isnan(b) ? a : isnan(a) ? b : b > a ? b : a)                   \
    static const emu_handler FB_NAME(TY##_frow)[6][4] = {                                      \
        FB_FLT_ROW(TY, mov), FB_FLT_ROW(TY, add), FB_FLT_ROW(TY, mul),                         \
        FB_FLT_ROW(TY, mad), FB_FLT_ROW(TY, min), FB_FLT_ROW(TY, max),                         \
    };

FB_OPS_INT(B)
FB_OPS_INT(UB)
FB_OPS_INT(W)
FB_OPS_INT(UW)
FB_OPS_INT(D)
FB_OPS_INT(UD)
FB_OPS_INT(Q)
FB_OPS_INT(UQ)
FB_OPS_FLT(F, fmaf)
FB_OPS_FLT(DF, fma)
FB_OPS_FLT(HF, hf_mad_odd)
FB_OPS_FLT(BF, bf_mad_odd)

/* CMP into a predicate: the relation's C operator per lane (IEEE: with a NaN only ne holds),
** the bits merged into the predicate at the op's mask offset. */
#define FB_CMP(TY)                                                                             \
    FB_ATTR static void FB_NAME(TY##_cmp)(emu_thread *t, const emu_op *op) {                   \
        if (op->fenv && emu_cr0_modes(t) != EMU_CR0_FAST) {                                    \
            emu_cmp_generic(t, op); /* denormal flushing */                                    \
            return;                                                                            \
        }                                                                                      \
        typedef TY##_ST st_t;                                                                  \
        uint32_t mask = emu_chen(t, op), bits = 0;                                             \
        unsigned n = op->exec;                                                                 \
        SRC(st_t, 0, s0, k0);                                                                  \
        SRC(st_t, 1, s1, k1);                                                                  \
        switch (op->cond & 7) {                                                                \
        case 0: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(TY##_LD(s0[i * k0]) == TY##_LD(s1[i * k1])) << i; break; \
        case 1: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)(TY##_LD(s0[i * k0]) != TY##_LD(s1[i * k1])) << i; break; \
        case 2: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)TY##_LT(TY##_LD(s1[i * k1]), TY##_LD(s0[i * k0])) << i; break; \
        case 3: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)TY##_LE(TY##_LD(s1[i * k1]), TY##_LD(s0[i * k0])) << i; break; \
        case 4: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)TY##_LT(TY##_LD(s0[i * k0]), TY##_LD(s1[i * k1])) << i; break; \
        default: for (unsigned i = 0; i < n; i++) bits |= (uint32_t)TY##_LE(TY##_LD(s0[i * k0]), TY##_LD(s1[i * k1])) << i; break; \
        }                                                                                      \
        unsigned b = op->dst.bitoff;                                                           \
        uint32_t m = b < 32 ? mask << b : 0;                                                   \
        t->pred[op->dst.off] = (t->pred[op->dst.off] & ~m) | ((b < 32 ? bits << b : 0) & m);   \
        t->pc++;                                                                               \
    }
FB_CMP(F)
FB_CMP(D)
FB_CMP(UD)
FB_CMP(W)
FB_CMP(UW)
FB_CMP(HF)

static const fast_set FB_NAME(fast_set_) = {
    {FB_NAME(B_row), FB_NAME(UB_row), FB_NAME(W_row), FB_NAME(UW_row), FB_NAME(D_row), FB_NAME(UD_row),
     FB_NAME(Q_row), FB_NAME(UQ_row)},
    {FB_NAME(F_frow), FB_NAME(DF_frow), FB_NAME(HF_frow), FB_NAME(BF_frow)},
    {FB_NAME(F_cmp), FB_NAME(D_cmp), FB_NAME(UD_cmp), FB_NAME(W_cmp), FB_NAME(UW_cmp), FB_NAME(HF_cmp)},
};

#undef FB_NAME
#undef FB_CAT
#undef FB_CAT2
