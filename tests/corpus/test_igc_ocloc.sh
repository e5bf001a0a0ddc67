#!/bin/bash
# test_igc_ocloc.sh VISA SHARED CACHE -- what Debian's IGC 1.0.x (ocloc) dumps, read by visa.
#
# Builds Oclgrind's kernel suite (SHARED/corpus/oclgrind/kernels: TESTS, each X.cl, build options
# from X.sim's "# ARGS: --build-options ...") with ocloc for tgllp, dg2-g10 and pvc, with IGC's
# vISA dumps on, into CACHE (one folder per device and .cl content + options: a rerun builds
# nothing).  For every dumped kernel (X.visaasm, X.isa) it checks:
#   fmt   `visa fmt X.visaasm` is X.visaasm byte for byte (the igc1 dialect is kept)
#   dis   `visa dis X.isa --dialect igc1` is X.visaasm, or visa refuses X.isa with E-BIN-IGC1
#         (allowed: see ALLOWED below)
#   asm   `visa asm X.visaasm` succeeds and `visa dis --dialect igc1` of that object is X.visaasm
#         (IGC's X.isa cannot be compared byte for byte: see ALLOWED)
# and prints per device: kernels built, and how many passed each check; failures by name.
# Skipped (77) without ocloc or without the corpus.
set -u
DEVICES="tgllp dg2-g10 pvc"

# Differences allowed, with the reason (docs/binary-format.md, "IGC 1.0.x's objects cannot be read"):
# - dis: IGC 1.0.x's writer drops the trailing fields of every instruction (as many as the
#   instruction has exec-size and predicate fields) and fills the rest of the instruction size
#   with what memory held; the operands are gone (IGC's GenX_IR crashes on these objects).  visa
#   refuses them with E-BIN-IGC1 instead of printing anything.
# - asm: for the same reason IGC's .isa is not what its text says; besides, its string pool is in
#   IGC's creation order (which the text does not show), and it holds an OutputAsmPath attribute
#   and a one-byte SimdSize the text does not show.  The check is that visa's object carries the
#   whole text (asm, then dis, gives the dump back).
ALLOWED_DIS_ID=E-BIN-IGC1

# -- build one test for one device into the cache (run in parallel by the main part; K is
# exported) -----------------------------------------------------------------------------------
if [ "${1:-}" = "--build" ]; then
    dev=$2 t=$3 out=$4
    opts=$(sed -n 's/^# ARGS:.*--build-options \(.*\)$/\1/p' "$K/$t.sim" 2>/dev/null)
    tmp=$(mktemp -d) || exit 1
    mkdir -p "$tmp/w"
    if (cd "$tmp/w" && IGC_EnableZEBinary=1 IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump \
            ocloc compile -file "$K/$t.cl" -device "$dev" -out_dir out ${opts:+-options "$opts"} \
            >"$tmp/log" 2>&1); then
        mkdir -p "$tmp/r"
        for f in "$tmp"/w/dump/*.visaasm; do
            [ -e "$f" ] || continue
            b=${f%.visaasm}
            cp "$f" "$tmp/r/" && [ -e "$b.isa" ] && cp "$b.isa" "$tmp/r/"
        done
        touch "$tmp/r/.built"
    else
        mkdir -p "$tmp/r" && cp "$tmp/log" "$tmp/r/.failed"
    fi
    rm -rf "$out" && mkdir -p "$(dirname "$out")" && mv "$tmp/r" "$out"
    rm -rf "$tmp"
    exit 0
fi
VISA=$(realpath "$1") SHARED=$2 CACHE=$3
export K=$SHARED/corpus/oclgrind/kernels

if ! command -v ocloc >/dev/null 2>&1; then
    echo "SKIP: ocloc (Debian's intel-opencl-icd tools) is not installed"
    exit 77
fi
if [ ! -f "$K/TESTS" ]; then
    echo "SKIP: $K/TESTS is absent (the shared corpus)"
    exit 77
fi

platform_of() {
    case $1 in tgllp) echo XeLP ;; dg2-g10) echo XeHPG ;; pvc) echo XeHPC ;; esac
}

# -- builds: the cache key is the device, the .cl's content and its build options --------------
mkdir -p "$CACHE"
jobs=$(mktemp)
trap 'rm -f "$jobs"' EXIT
declare -A dir_of
for dev in $DEVICES; do
    while read -r t; do
        [ -n "$t" ] || continue
        key=$({ cat "$K/$t.cl"; grep '^# ARGS:' "$K/$t.sim" 2>/dev/null; echo "$dev"; } | sha256sum | cut -c1-16)
        d=$CACHE/$dev/${t//\//_}-$key
        dir_of[$dev/$t]=$d
        [ -e "$d/.built" ] || [ -e "$d/.failed" ] || printf '%s %s %s\n' "$dev" "$t" "$d" >>"$jobs"
    done <"$K/TESTS"
done
if [ -s "$jobs" ]; then
    echo "building $(wc -l <"$jobs") kernels with ocloc (2 at a time)..."
    xargs -P2 -L1 bash "$0" --build <"$jobs"
fi

# -- checks --------------------------------------------------------------------------------------
tmp=$(mktemp -d)
trap 'rm -f "$jobs"; rm -rf "$tmp"' EXIT
fails=0
for dev in $DEVICES; do
    plat=$(platform_of "$dev")
    built=0 nk=0 fmt_ok=0 dis_ok=0 dis_refused=0 asm_ok=0 failed_builds=""
    bad=()
    while read -r t; do
        [ -n "$t" ] || continue
        d=${dir_of[$dev/$t]}
        if [ ! -e "$d/.built" ]; then
            failed_builds+=" $t"
            continue
        fi
        built=$((built + 1))
        for f in "$d"/*.visaasm; do
            [ -e "$f" ] || continue
            nk=$((nk + 1))
            name="$t/$(basename "$f" .visaasm)"
            if "$VISA" fmt "$f" >"$tmp/fmt" 2>"$tmp/err" && cmp -s "$tmp/fmt" "$f"; then
                fmt_ok=$((fmt_ok + 1))
            else
                bad+=("fmt $name: $(head -c 300 "$tmp/err")")
            fi
            isa=${f%.visaasm}.isa
            if [ ! -e "$isa" ]; then
                bad+=("dis $name: IGC wrote no .isa")
            elif "$VISA" dis "$isa" --platform "$plat" --dialect igc1 >"$tmp/dis" 2>"$tmp/err"; then
                if cmp -s "$tmp/dis" "$f"; then dis_ok=$((dis_ok + 1))
                else bad+=("dis $name: differs from the dump"); fi
            elif grep -q "$ALLOWED_DIS_ID" <("$VISA" dis "$isa" --platform "$plat" --json 2>/dev/null); then
                dis_refused=$((dis_refused + 1))
            else
                bad+=("dis $name: $(head -c 300 "$tmp/err")")
            fi
            if "$VISA" asm "$f" --platform "$plat" -o "$tmp/o.isa" 2>"$tmp/err" &&
               "$VISA" dis "$tmp/o.isa" --platform "$plat" --dialect igc1 >"$tmp/rt" 2>>"$tmp/err" &&
               cmp -s "$tmp/rt" "$f"; then
                asm_ok=$((asm_ok + 1))
            else
                bad+=("asm $name: $(head -c 300 "$tmp/err")")
            fi
        done
    done <"$K/TESTS"
    echo "$dev ($plat): $built tests built, $nk kernels; fmt identical $fmt_ok/$nk; dis identical $dis_ok/$nk," \
         "refused as IGC 1.0.x objects ($ALLOWED_DIS_ID, allowed) $dis_refused/$nk; asm -> dis identical $asm_ok/$nk"
    if [ -n "$failed_builds" ]; then
        echo "  FAIL: ocloc failed for:$failed_builds (logs: the .failed files under $CACHE/$dev)"
        fails=$((fails + 1))
    fi
    if [ "$nk" -eq 0 ]; then
        echo "  FAIL: no kernels"
        fails=$((fails + 1))
    fi
    for b in "${bad[@]+"${bad[@]}"}"; do
        echo "  FAIL $b"
        fails=$((fails + 1))
    done
done
[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "all kernels pass"
