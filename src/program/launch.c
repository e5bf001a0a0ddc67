/* launch.c -- an OpenCL NDRange launch of a program's kernel with IGC's ABI (docs/program.md).
**
** .ze_info's payload_arguments say which bytes of the cross-thread payload hold what; the launch
** fills an image of it and the emulator copies the image into every thread after the per-thread
** payload (visa_run_opts.payload), where the kernel's `.input`s read it (IGC 1.0.12504's vISA
** offsets are the cross-thread start plus .ze_info's offsets, inline data included).
**
** Memory.  The emulator's global memory is a table of buffers, buffer i at visa_buffer_address(i),
** and a stateful access `bti(N)` reads buffer N.  So the table starts with one slot per binding
** table index of the kernel (a stateful argument's buffer sits at its bti_value; unused indices
** are empty), then the stateless arguments' buffers, then what the launch itself provides: private
** memory, the printf buffer.  A pointer argument receives its buffer's address; buffer_offset is 0
** (an argument is a whole buffer).  __local arguments are placed in the group's shared local
** memory after the kernel's own slm_size, each at its slm_alignment, and receive that offset.
**
** Geometry.  A global size that is not a multiple of the local size (OpenCL 2.0 non-uniform
** work-groups) runs as up to 8 regions, as compute-runtime dispatches it: in each dimension the
** whole groups, then one group of the remainder, each region with its own local_size in the
** payload, its groups numbered on from the whole ones (visa_run_opts.group_base), and the same
** enqueued_local_size, global_size and group_count.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_api.h"
#include "program_launch.h"

/* Three 32-bit values into a payload argument of `size` bytes (IGC may keep only x, or x and y). */
static void put3(uint8_t *p, int32_t size, const uint64_t v[3]) {
    for (int k = 0; k < 3 && 4 * k + 4 <= size; k++) vp_put_le(p + 4 * k, v[k], 4);
}

static bool arg_error(cl_plan *P, const char *fmt, const char *what, size_t index) {
    const visa_cl_arg_info *ai = index < P->kx->arg_count ? &P->kx->args[index] : NULL;
    char msg[256];
    snprintf(msg, sizeof msg, fmt, what);
    vp_diag_offset(P->ds, PDIAG_PROGRAM_ARG, VISA_DIAG_NO_OFFSET, "kernel %s, argument %zu%s%s%s: %s", P->kx->k->name,
                   index, ai && *ai->name ? " (" : "", ai ? ai->name : "", ai && *ai->name ? ")" : "", msg);
    return false;
}

static const char *kind_name(visa_cl_arg_kind k) {
    switch (k) {
    case VISA_CL_ARG_BUFFER: return "a buffer";
    case VISA_CL_ARG_LOCAL: return "a __local size";
    case VISA_CL_ARG_VALUE: return "a value";
    case VISA_CL_ARG_SAMPLER: return "a sampler";
    case VISA_CL_ARG_IMAGE: return "an image";
    }
    return "an unknown kind";
}

/* The caller's arguments against the kernel's: count, kinds, value sizes. */
static bool check_args(cl_plan *P) {
    const vp_program_kernel_ex *kx = P->kx;
    if (P->nargs != kx->arg_count) {
        vp_diag_offset(P->ds, PDIAG_PROGRAM_ARG, VISA_DIAG_NO_OFFSET,
                       "kernel %s takes %u argument%s, the launch gives %zu", kx->k->name, kx->arg_count,
                       kx->arg_count == 1 ? "" : "s", P->nargs);
        return false;
    }
    for (size_t i = 0; i < P->nargs; i++) {
        const visa_cl_arg *a = &P->args[i];
        const visa_cl_arg_info *ai = &kx->args[i];
        if ((unsigned)a->kind > VISA_CL_ARG_IMAGE) return arg_error(P, "%s", "unknown argument kind", i);
        if (ai->kind == VISA_CL_ARG_SAMPLER || ai->kind == VISA_CL_ARG_IMAGE)
            return arg_error(P, "%s arguments are not emulated (no sampler or image support)",
                             ai->kind == VISA_CL_ARG_IMAGE ? "image" : "sampler", i);
        if (a->kind != ai->kind) {
            char want[64];
            snprintf(want, sizeof want, "%s", kind_name(ai->kind));
            return arg_error(P, "it takes %s", want, i);
        }
        if (a->kind == VISA_CL_ARG_VALUE && (!a->data || a->size < ai->size)) {
            char got[96];
            snprintf(got, sizeof got, "%u bytes, given %zu", ai->size, a->data ? a->size : 0);
            return arg_error(P, "the value takes %s", got, i);
        }
        if (a->kind == VISA_CL_ARG_BUFFER && !a->data && a->size)
            return arg_error(P, "%s", "a buffer of nonzero size needs its bytes", i);
        if (a->kind == VISA_CL_ARG_LOCAL && !a->size) return arg_error(P, "%s", "a __local size of 0 bytes", i);
    }
    return true;
}

/* A local size when the caller gives none: the largest divisor of the global size in x up to
** SIMD x 8 work-items (a group of 8 threads, as compute-runtime's default for 1D launches tends
** to), preferring multiples of the SIMD width; 1 in y and z. */
static uint64_t choose_local_x(uint64_t global, uint32_t simd) {
    uint64_t limit = (uint64_t)simd * 8, best = 1;
    for (uint64_t d = 1; d <= limit && d <= global; d++)
        if (global % d == 0 && (d % simd == 0 || best % simd != 0)) best = d;
    return best;
}

static bool plan_geometry(cl_plan *P) {
    const visa_cl_launch *L = P->launch;
    const vp_exec_env *env = &P->kx->k->info->env;
    if (L->work_dim < 1 || L->work_dim > 3) {
        vp_diag_offset(P->ds, PDIAG_PROGRAM_LAUNCH, VISA_DIAG_NO_OFFSET, "work_dim is %u: it is 1, 2 or 3",
                       L->work_dim);
        return false;
    }
    bool local_given = L->local_size[0] || L->local_size[1] || L->local_size[2];
    bool reqd = env->required_work_group_size[0] > 0;
    for (uint32_t d = 0; d < 3; d++) {
        bool used = d < L->work_dim;
        P->global[d] = used ? L->global_size[d] : 1;
        P->offset[d] = used ? L->global_offset[d] : 0;
        P->local[d] = !used         ? 1
                      : local_given ? L->local_size[d]
                      : reqd        ? (uint64_t)env->required_work_group_size[d]
                                    : 0;
        if (!P->global[d] || (local_given && !P->local[d])) {
            vp_diag_offset(P->ds, PDIAG_PROGRAM_LAUNCH, VISA_DIAG_NO_OFFSET,
                           "%s size %llu in dimension %u: every used dimension needs at least 1",
                           P->global[d] ? "local" : "global", (unsigned long long)(P->global[d] ? P->local[d] : 0), d);
            return false;
        }
        if (P->global[d] > UINT32_MAX || P->local[d] > UINT32_MAX || P->offset[d] > UINT32_MAX) {
            vp_diag_offset(P->ds, PDIAG_PROGRAM_LAUNCH, VISA_DIAG_NO_OFFSET,
                           "dimension %u: sizes and offsets above 2^32 - 1 do not fit IGC's 32-bit payload", d);
            return false;
        }
    }
    if (!local_given && !reqd) {
        P->local[0] = choose_local_x(P->global[0], P->simd);
        P->local[1] = P->local[2] = 1;
    }
    for (uint32_t d = 0; d < 3; d++) {
        if (reqd && P->local[d] != (uint64_t)env->required_work_group_size[d]) {
            vp_diag_offset(P->ds, PDIAG_PROGRAM_LAUNCH, VISA_DIAG_NO_OFFSET,
                           "kernel %s requires the work-group size %d,%d,%d (reqd_work_group_size)", P->kx->k->name,
                           env->required_work_group_size[0], env->required_work_group_size[1],
                           env->required_work_group_size[2]);
            return false;
        }
        P->whole[d] = P->global[d] / P->local[d];
        P->rest[d] = P->global[d] % P->local[d];
        P->groups[d] = P->whole[d] + (P->rest[d] != 0);
    }
    return true;
}

/* __local arguments, in argument order, each at its slm_alignment: the payload holds the offset
** from the end of the kernel's own SLM (compute-runtime Kernel::setArgLocal: the first is 0), to
** which IGC adds slm_size (InlineLocalsResolution).  The group gets slm_size plus their bytes. */
static bool plan_slm(cl_plan *P) {
    const vp_zeinfo_kernel *k = P->kx->k->info;
    uint64_t end = 0;
    for (size_t arg = 0; arg < P->nargs && end <= (64u << 20); arg++) {
        for (uint32_t i = 0; i < k->arg_count; i++) {
            const vp_payload_arg *a = &k->args[i];
            if (a->arg_type != VP_ARG_ARG_BYPOINTER || a->addrmode != VP_ADDRMODE_SLM || a->arg_index != (int32_t)arg)
                continue;
            uint64_t align = a->slm_alignment > 0 ? (uint64_t)a->slm_alignment : 1;
            end = (end + align - 1) / align * align;
            P->slm_offset[arg] = (uint32_t)end;
            end += P->args[arg].size;
            break;
        }
    }
    end += (uint64_t)k->env.slm_size;
    if (end > UINT32_MAX / 2) end = UINT32_MAX / 2; /* the emulator reports it against the platform */
    P->slm_bytes = (uint32_t)end;
    return true;
}

static uint32_t new_slot(cl_plan *P, uint8_t *data, size_t size) {
    P->bufs[P->nbufs] = (visa_buffer){data, size};
    return (uint32_t)P->nbufs++;
}

/* A per-argument flag of the launch (arg_undef, arg_access) as one per buffer slot; NULL when the
** launch gives none and `always` is false (or, with *st VISA_E_NOMEM, when it cannot be had). */
static uint8_t *slot_flags(cl_plan *P, const uint8_t *per_arg, bool always, visa_status *st) {
    if (!per_arg && !always) return NULL;
    uint8_t *f = vx_alloc(P->ctx, P->nbufs_cap);
    if (!f) {
        *st = VISA_E_NOMEM;
        return NULL;
    }
    memset(f, 0, P->nbufs_cap);
    for (size_t i = 0; per_arg && i < P->nargs; i++)
        if (P->args[i].kind == VISA_CL_ARG_BUFFER && P->arg_slot[i] < P->nbufs_cap) f[P->arg_slot[i]] = per_arg[i];
    return f;
}

/* The buffer table: binding-table slots, the arguments' buffers, private memory and printf. */
static visa_status plan_buffers(cl_plan *P) {
    const vp_zeinfo_kernel *k = P->kx->k->info;
    uint32_t nbti = 0;
    for (uint32_t i = 0; i < k->bti_count; i++)
        if ((uint32_t)k->btis[i].bti_value + 1 > nbti) nbti = (uint32_t)k->btis[i].bti_value + 1;
    bool segments = false;
    for (unsigned s = 0; s < VP_DATA_SEGMENTS; s++) segments |= P->program->segments[s].data != NULL;
    if (segments) nbti = VP_SLOT_SEGMENTS + VP_DATA_SEGMENTS;
    size_t cap = nbti + P->nargs + VP_LAUNCH_OWN_BUFFERS;
    P->bufs = vx_alloc(P->ctx, cap * sizeof *P->bufs);
    if (!P->bufs) return VISA_E_NOMEM;
    P->nbufs_cap = cap;
    memset(P->bufs, 0, cap * sizeof *P->bufs);
    P->nbufs = nbti;
    for (unsigned s = 0; segments && s < VP_DATA_SEGMENTS; s++) P->bufs[VP_SLOT_SEGMENTS + s] = P->program->segments[s];
    for (size_t i = 0; i < P->nargs; i++) {
        const visa_cl_arg *a = &P->args[i];
        P->arg_slot[i] = UINT32_MAX;
        if (a->kind != VISA_CL_ARG_BUFFER || !a->data) continue;
        uint32_t bti = UINT32_MAX;
        for (uint32_t j = 0; j < k->bti_count; j++)
            if ((size_t)k->btis[j].arg_index == i) bti = (uint32_t)k->btis[j].bti_value;
        if (bti != UINT32_MAX) {
            P->bufs[bti] = (visa_buffer){(uint8_t *)a->data, a->size};
            P->arg_slot[i] = bti;
        } else {
            P->arg_slot[i] = new_slot(P, (uint8_t *)a->data, a->size);
        }
    }
    visa_status st = vp_launch_own_buffers(P);
    /* the memory no one wrote: the host's undefined buffers and the runtime's private memory */
    if (st == VISA_OK) P->buf_undef = slot_flags(P, P->launch->arg_undef, vp_launch_own_undef(P, NULL), &st);
    if (st == VISA_OK && P->buf_undef) vp_launch_own_undef(P, P->buf_undef);
    if (st == VISA_OK) P->buf_access = slot_flags(P, P->launch->arg_access, false, &st);
    return st;
}

/* The payload image for one region (its local size). */
static void fill_payload(cl_plan *P, const uint64_t local[3]) {
    const vp_zeinfo_kernel *k = P->kx->k->info;
    memset(P->payload, 0, P->payload_size);
    for (uint32_t i = 0; i < k->arg_count; i++) {
        const vp_payload_arg *a = &k->args[i];
        if (!a->size || (uint32_t)a->offset + (uint32_t)a->size > P->payload_size) continue;
        uint8_t *dst = P->payload + a->offset;
        const visa_cl_arg *arg = a->arg_index >= 0 && (size_t)a->arg_index < P->nargs ? &P->args[a->arg_index] : NULL;
        uint32_t slot = arg ? P->arg_slot[a->arg_index] : UINT32_MAX;
        uint64_t work_dim = P->launch->work_dim;
        switch (a->arg_type) {
        case VP_ARG_LOCAL_SIZE: put3(dst, a->size, local); break;
        case VP_ARG_ENQUEUED_LOCAL_SIZE: put3(dst, a->size, P->local); break;
        case VP_ARG_GLOBAL_SIZE: put3(dst, a->size, P->global); break;
        case VP_ARG_GROUP_COUNT: put3(dst, a->size, P->groups); break;
        case VP_ARG_GLOBAL_ID_OFFSET: put3(dst, a->size, P->offset); break;
        case VP_ARG_WORK_DIMENSIONS: vp_put_le(dst, work_dim, (unsigned)a->size); break;
        case VP_ARG_ARG_BYVALUE:
            if (arg && arg->data) {
                size_t from = a->source_offset > 0 ? (size_t)a->source_offset : 0;
                if (from + (size_t)a->size <= arg->size)
                    memcpy(dst, (const uint8_t *)arg->data + from, (size_t)a->size);
            }
            break;
        case VP_ARG_ARG_BYPOINTER:
            if (!arg) break;
            if (a->addrmode == VP_ADDRMODE_SLM) vp_put_le(dst, P->slm_offset[a->arg_index], (unsigned)a->size);
            else if (slot != UINT32_MAX) vp_put_le(dst, visa_buffer_address(slot), (unsigned)a->size);
            break; /* a NULL pointer: 0 */
        case VP_ARG_BUFFER_ADDRESS:
            if (slot != UINT32_MAX) vp_put_le(dst, visa_buffer_address(slot), (unsigned)a->size);
            break;
        case VP_ARG_BUFFER_OFFSET: break; /* every argument is a whole buffer: 0 */
        default: vp_launch_fill_own(P, a, dst); break;
        }
    }
}

/* One region of the NDRange: groups [base, base + count) with work-group size local. */
static visa_status run_region(cl_plan *P, const visa_kernel *vk, const uint64_t base[3], const uint64_t count[3],
                              const uint64_t local[3], visa_run_stats *total) {
    fill_payload(P, local);
    visa_run_opts o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.threads = P->launch->threads;
    o.max_steps = P->launch->max_steps;
    o.timeout_seconds = P->launch->timeout_seconds;
    o.checks = P->launch->checks;
    o.undef_buffers = P->buf_undef;
    o.buffer_access = P->buf_access;
    o.observer = P->launch->observer;
    o.payload = P->payload;
    o.symbols = P->program->symbols;
    o.nsymbols = P->program->nsymbols;
    o.payload_size = P->payload_size;
    o.per_thread_size = P->per_thread_size;
    o.slm_size = P->slm_bytes;
    if (P->scratch_mem) {
        o.scratch_size = P->scratch_size;
        o.scratch_buffer = P->scratch_slot;
    }
    for (int d = 0; d < 3; d++) {
        o.groups[d] = (uint32_t)count[d];
        o.local_size[d] = (uint32_t)local[d];
        o.group_base[d] = (uint32_t)base[d];
        /* what the payload holds too; the emulator names work-items by them */
        o.enqueued_local_size[d] = (uint32_t)P->local[d];
        o.global_offset[d] = (uint32_t)P->offset[d];
    }
    visa_run_stats st;
    visa_status s = visa_kernel_run(vk, &o, NULL, 0, P->bufs, P->nbufs, &st);
    total->instructions += st.instructions;
    total->threads += st.threads;
    return s;
}

/* Every region: per dimension the whole groups and the remainder group. */
static visa_status run_regions(cl_plan *P, const visa_kernel *vk, visa_run_stats *total) {
    visa_status worst = VISA_OK;
    for (unsigned r = 0; r < 8; r++) {
        uint64_t base[3], count[3], local[3];
        bool empty = false;
        for (int d = 0; d < 3; d++) {
            bool rest = (r >> d) & 1;
            base[d] = rest ? P->whole[d] : 0;
            count[d] = rest ? (P->rest[d] ? 1 : 0) : P->whole[d];
            local[d] = rest ? P->rest[d] : P->local[d];
            empty |= count[d] == 0;
        }
        if (empty) continue;
        visa_status s = run_region(P, vk, base, count, local, total);
        if (s != VISA_OK && worst == VISA_OK) worst = s;
        if (s != VISA_OK && s != VISA_E_RUNTIME) break; /* a launch error: the other regions would repeat it */
    }
    return worst;
}

static visa_status plan_and_run(cl_plan *P, visa_run_stats *stats) {
    const vp_program_kernel_ex *kx = P->kx;
    const vp_zeinfo_kernel *k = kx->k->info;
    if (!kx->module) {
        vp_diag_offset(P->ds, PDIAG_PROGRAM_VISAASM, VISA_DIAG_NO_OFFSET,
                       "kernel %s: the zebin holds no vISA text for it (build it with -internal_options "
                       "-cl-intel-emit-zebin-visa-sections; visa builds .cl and .spv files that way)",
                       kx->k->name);
        return VISA_E_UNSUPPORTED;
    }
    P->simd = (uint32_t)k->env.simd_size;
    P->per_thread_size = vp_per_thread_size(k, P->program->platform);
    if (!check_args(P) || !plan_geometry(P) || !plan_slm(P)) return VISA_E_ARG;
    visa_status st = vp_launch_check_env(P);
    if (st != VISA_OK) return st;
    st = plan_buffers(P);
    if (st != VISA_OK) return st;
    P->payload_size = k->payload_size > (uint32_t)k->env.inline_data_payload_size
                          ? k->payload_size
                          : (uint32_t)k->env.inline_data_payload_size;
    P->payload = vx_alloc(P->ctx, P->payload_size ? P->payload_size : 1);
    if (!P->payload) return VISA_E_NOMEM;
    const visa_kernel *vk;
    st = visa_kernel_prepare(kx->module, NULL, P->program->platform, &vk);
    if (st != VISA_OK) return st;
    st = run_regions(P, vk, stats);
    visa_status pst = vp_launch_finish(P);
    return st != VISA_OK ? st : pst;
}

visa_status visa_program_run(const visa_program *program, const visa_cl_launch *launch, const visa_cl_arg *args,
                             size_t nargs, visa_run_stats *stats) {
    visa_run_stats local_stats;
    if (!stats) stats = &local_stats;
    memset(stats, 0, sizeof *stats);
    visa_cl_launch L; /* the caller's, read by the versioning rule (an older caller's lacks fields) */
    if (!program || !launch || (nargs && !args) || visa__cl_launch_read(launch, &L) != VISA_OK) return VISA_E_ARG;
    launch = &L;
    diag_sink ds;
    diag_init(&ds, program->ctx, program->name, NULL, 0);
    const vp_program_kernel_ex *kx = vp_kernel_find(program, launch->kernel);
    if (!kx) {
        vp_diag_offset(&ds, PDIAG_PROGRAM_KERNEL, VISA_DIAG_NO_OFFSET, "the program has no kernel named '%s'",
                       launch->kernel ? launch->kernel : "(null)");
        return VISA_E_ARG;
    }
    cl_plan P;
    memset(&P, 0, sizeof P);
    P.ctx = program->ctx;
    P.program = program;
    P.kx = kx;
    P.launch = launch;
    P.args = args;
    P.nargs = nargs;
    P.ds = &ds;
    size_t per_arg = (nargs ? nargs : 1) * sizeof(uint32_t);
    P.arg_slot = vx_alloc(P.ctx, per_arg);
    P.slm_offset = vx_alloc(P.ctx, per_arg);
    visa_status st = P.arg_slot && P.slm_offset ? VISA_OK : VISA_E_NOMEM;
    if (st == VISA_OK) {
        memset(P.slm_offset, 0, per_arg);
        st = plan_and_run(&P, stats);
    }
    vp_launch_own_free(&P);
    if (P.bufs) vx_free(P.ctx, P.bufs, (P.nbufs_cap ? P.nbufs_cap : 1) * sizeof *P.bufs);
    if (P.buf_undef) vx_free(P.ctx, P.buf_undef, P.nbufs_cap);
    if (P.buf_access) vx_free(P.ctx, P.buf_access, P.nbufs_cap);
    if (P.payload) vx_free(P.ctx, P.payload, P.payload_size ? P.payload_size : 1);
    if (P.arg_slot) vx_free(P.ctx, P.arg_slot, per_arg);
    if (P.slm_offset) vx_free(P.ctx, P.slm_offset, per_arg);
    if (st == VISA_E_NOMEM) diag_oom(&ds);
    return st;
}
