/* prepare.c -- the module's prepared kernels (prepare.h; visa_kernel_prepare in visa.h).
**
** A module holds one set, created on the first preparation and published on visa_module.prepared
** with a compare-and-swap (modules are shared by threads), released with the module.  The set's
** lock covers finding and lowering: two threads preparing the same kernel lower it once.  A
** prepared program is never changed afterwards, so launches read it without the lock.  A kernel
** that fails to lower is not kept: the next attempt reports its diagnostics again.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "prepare.h"

#include "jit.h"

typedef struct emu_prepared {
    vx_cached base;
    pthread_mutex_t lock;
    visa_kernel *head;
    _Atomic uint64_t kernels, lowerings, launches;
} emu_prepared;

static void prepared_release(visa_ctx *ctx, vx_cached *self) {
    emu_prepared *set = (emu_prepared *)self;
    for (visa_kernel *k = set->head, *next; k; k = next) {
        next = k->next;
        emu_program_free(&k->prog);
        vx_free(ctx, k, sizeof *k);
    }
    pthread_mutex_destroy(&set->lock);
    vx_free(ctx, set, sizeof *set);
}

/* The module's set, created on first use; NULL when out of memory. */
static emu_prepared *prepared_of(const visa_module *m) {
    visa_module *mm = (visa_module *)m; /* the set is the module's cache, not its content */
    vx_cached *c = atomic_load_explicit(&mm->prepared, memory_order_acquire);
    if (c) return (emu_prepared *)c;
    emu_prepared *set = vx_alloc(m->ctx, sizeof *set);
    if (!set) return NULL;
    memset(set, 0, sizeof *set);
    set->base.release = prepared_release;
    if (pthread_mutex_init(&set->lock, NULL)) {
        vx_free(m->ctx, set, sizeof *set);
        return NULL;
    }
    vx_cached *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(&mm->prepared, &expected, &set->base, memory_order_acq_rel,
                                                memory_order_acquire))
        return set;
    prepared_release(m->ctx, &set->base); /* another thread published first */
    return (emu_prepared *)expected;
}

static visa_kernel *find(const emu_prepared *set, const ir_routine *r, visa_platform plat, const emu_knobs *kn) {
    for (visa_kernel *k = set->head; k; k = k->next)
        if (k->r == r && k->plat == plat && k->knobs.generic == kn->generic && k->knobs.isa == kn->isa &&
            k->knobs.tier == kn->tier && k->knobs.jit_hot == kn->jit_hot && k->knobs.jit_wait == kn->jit_wait)
            return k;
    return NULL;
}

visa_status visa_kernel_prepare(const visa_module *m, const char *kernel, visa_platform plat, const visa_kernel **out) {
    if (out) *out = NULL;
    if (!m || !out || (unsigned)plat >= VISA_PLATFORM__COUNT) return VISA_E_ARG;
    diag_sink ds;
    diag_init(&ds, m->ctx, m->name ? m->name : "<module>", NULL, 0);
    const ir_routine *r = ir_find_kernel(m, kernel);
    if (!r) {
        if (kernel) emu_diag_offset(&ds, EDIAG_LAUNCH_KERNEL_UNKNOWN, VISA_DIAG_NO_OFFSET, kernel);
        else emu_diag_offset(&ds, EDIAG_LAUNCH_NO_KERNEL, VISA_DIAG_NO_OFFSET);
        return VISA_E_ARG;
    }
    emu_knobs kn;
    emu_knobs_read(&kn);
    emu_prepared *set = prepared_of(m);
    if (!set) {
        diag_oom(&ds);
        return VISA_E_NOMEM;
    }
    pthread_mutex_lock(&set->lock);
    visa_kernel *k = find(set, r, plat, &kn);
    visa_status st = VISA_OK;
    if (!k) {
        k = vx_alloc(m->ctx, sizeof *k);
        if (!k) st = VISA_E_NOMEM;
        else {
            memset(k, 0, sizeof *k);
            k->set = set, k->r = r, k->plat = plat, k->knobs = kn;
            atomic_fetch_add(&set->lowerings, 1);
            st = emu_lower(m->ctx, m, r, plat, &kn, &k->prog, &ds);
        }
        if (st == VISA_OK) {
            atomic_fetch_add(&set->kernels, 1);
            k->next = set->head;
            set->head = k;
        } else if (k) {
            vx_free(m->ctx, k, sizeof *k);
            k = NULL;
        }
    }
    pthread_mutex_unlock(&set->lock);
    if (st == VISA_E_NOMEM) diag_oom(&ds);
    *out = k;
    return st;
}

visa_status visa_kernel_op_source(const visa_kernel *k, uint32_t op, const char **file, uint32_t *line) {
    const char *f = NULL;
    uint32_t n = k && op < k->prog.ops.len ? emu_src_of(&k->prog, op, &f) : 0;
    if (file) *file = f;
    if (line) *line = n;
    return k && op < k->prog.ops.len ? VISA_OK : VISA_E_ARG;
}

void emu_prepared_note_launch(const visa_kernel *k) { atomic_fetch_add(&k->set->launches, 1); }

visa_status visa_module_prepare_stats(const visa_module *m, visa_prepare_stats *out) {
    if (!m || !out || out->struct_size < offsetof(visa_prepare_stats, launches) + sizeof out->launches)
        return VISA_E_ARG;
    visa_prepare_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = out->struct_size;
    emu_prepared *set = (emu_prepared *)atomic_load_explicit(&((visa_module *)m)->prepared, memory_order_acquire);
    if (set) {
        s.kernels = atomic_load(&set->kernels);
        s.lowerings = atomic_load(&set->lowerings);
        pthread_mutex_lock(&set->lock);
        for (const visa_kernel *k = set->head; k; k = k->next) {
            s.compilations += emu_jit_compiled(&k->prog);
            s.compiled_instructions += emu_jit_compiled_steps(&k->prog);
        }
        pthread_mutex_unlock(&set->lock);
        s.launches = atomic_load(&set->launches);
    }
    memcpy(out, &s, out->struct_size < sizeof s ? out->struct_size : sizeof s);
    return VISA_OK;
}
