/* test_registration.c -- every form of the instruction table (src/isa/ops.def) is registered
** with each part that dispatches on forms: the emulator's semantics (src/emu/sem.def) says how
** it runs or why it does not; the text front end (src/text/hooks.def) has the family hook a
** form's hook column names.  The reference is ops.def's own list of forms (isa_forms), not the
** registration lists under test. */
#include <string.h>

#include "emu/exec.h"
#include "../harness.h"
#include "isa.h"
#include "text/text.h"

/* Each form is emulated (a handler) or listed as not emulated with a reason, never both. */
static void test_emu_semantics(void) {
    for (unsigned f = 0; f < VISA_FORM__COUNT; f++) {
        CASE_BEGIN();
        const emu_sem *s = emu_sem_of(f);
        const char *why = emu_not_emulated(f);
        CHECKF(s || why, "form %s has no row in src/emu/sem.def (neither EMU_SEM/EMU_ALU nor EMU_NOT)",
               isa_forms[f].name);
        CHECKF(!(s && why), "form %s is both emulated and not emulated", isa_forms[f].name);
        if (s)
            CHECKF(isa_form_ndst((int)f) <= 2, "form %s: %u destinations (the lowering has slots for 2)",
                   isa_forms[f].name, isa_form_ndst((int)f));
        if (why) CHECKF(why[0] != 0, "form %s: empty not-emulated reason", isa_forms[f].name);
        CASE_END(isa_forms[f].name);
    }
    /* out of range: neither */
    CASE_BEGIN();
    CHECK(emu_sem_of(VISA_FORM__COUNT) == NULL && emu_not_emulated(VISA_FORM__COUNT) == NULL);
    CASE_END("out of range");
}

/* A form with a hook column other than TH_NONE finds a hook that prints it (parsing may fall back
** to the form's template). */
static void test_text_hooks(void) {
    CASE_BEGIN();
    for (unsigned f = 0; f < VISA_FORM__COUNT; f++) {
        unsigned h = isa_forms[f].hook;
        if (h == TH_NONE) continue;
        CHECKF(h < TH__COUNT && txt_hooks[h] && txt_hooks[h]->print,
               "form %s: text hook %u has no row in src/text/hooks.def", isa_forms[f].name, h);
    }
    CHECK(txt_hooks[TH_NONE] == NULL);
    CASE_END("text hooks");
}

int main(void) {
    test_emu_semantics();
    test_text_hooks();
    return th_finish();
}
