#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the machine code (SASS) of the compiled GEMM kernels.

usage: check_sass.py BINARY...   (object files, or libbwgemm.so)
       check_sass.py --find-tools  (prints cuobjdump's path; fails without it)

Every kernel function in the binaries must match at least one rule of RULES
(a regular expression on its demangled name); a rule then requires patterns
in the kernel's instructions (each a regular expression searched line by
line: at least one line matches) and forbids others (no line matches). Every
checked kernel must have no stack frame and no local memory (spills go to
local memory), as `cuobjdump -res-usage` reports, and every sm90 kernel's
register reconfiguration (setmaxnreg) must fit the registers its threads
hold at launch (REG); a rule with `static_smem`
set also bounds the kernels' static shared memory (SHARED) by
kStaticSmemAllowance of src/kernels/common/smem_budget.h, which the kernel's
shared-memory budget counts on. A rule whose `count` is set
must match exactly that many kernels; an `optional` rule is skipped when no
kernel matches it (a family that is not built yet); any other rule must match
at least one.

cuobjdump comes from PATH, or from the nvidia-cuda-cuobjdump wheel that
scripts/install-deps.sh installs (with nvidia-cuda-nvdisasm, which
`cuobjdump -sass` runs) into .tools/python, or from the same wheels installed
in this Python environment.
"""

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Optional


def sm90(ab=r"[\w:]+", out=r"[\w:]+", row_mn=r"\w+", col_mn=r"\w+", config=r"\d+"):
    """The sm90 kernels of Config<AB, Out, kRowMN, kColMN, kConfig>."""
    return (r"^void bwgemm::sm90::gemm_kernel<bwgemm::sm90::Config<"
            rf"{ab}, {out}, {row_mn}, {col_mn}, {config}> >\(bwgemm::GemmParams\)$")


# sm90's configurations (src/kernels/sm90/config.h kShapes): wgmma N, whether
# the cluster multicasts or splits K, and how many kernels (4 type pairs x the
# operand layouts each is compiled for).
SM90_CONFIGS = {
    # Split tiles: a last wave's tiles in pieces of K (tile_split.h).
    0: dict(n=256, multicast=True, split_k=False, kernels=16, consumers=2, split_tiles=True),
    1: dict(n=128, multicast=True, split_k=False, kernels=16, consumers=1),
    2: dict(n=128, multicast=False, split_k=False, kernels=16, consumers=1),
    3: dict(n=64, multicast=False, split_k=False, kernels=8, consumers=1),
    4: dict(n=64, multicast=False, split_k=True, kernels=8, consumers=1),
    5: dict(n=64, multicast=False, split_k=True, kernels=8, consumers=1),
    6: dict(n=128, multicast=True, split_k=False, kernels=16, consumers=2),
    # Row windows: M/N-major row operands only.
    7: dict(n=256, multicast=True, split_k=False, kernels=8, consumers=2, row_windows=True),
    # Decode at up to 32 tokens: stages of 32 token rows, two CTAs per SM.
    8: dict(n=64, multicast=False, split_k=True, kernels=8, consumers=1, ctas_per_sm=2),
    # Register windows: both operands M/N-major, A from registers.
    9: dict(n=256, multicast=True, split_k=False, kernels=4, consumers=2, register_windows=True),
}
SM90_KERNELS = sum(c["kernels"] for c in SM90_CONFIGS.values())
# The configurations whose wgmma reads A from shared memory (its .tnspA says
# the row operand's layout), as a pattern of sm90(config=...).
SM90_SMEM_A = "(?:" + "|".join(str(k) for k, c in SM90_CONFIGS.items()
                               if not c.get("register_windows")) + ")"
# Kernels with an M/N-major row operand read from shared memory
# (configurations compiled for every layout: half their kernels; row windows:
# all of theirs), and with an M/N-major column operand (half; register
# windows: all).
SM90_ROW_MN = sum(c["kernels"] if c.get("row_windows") else c["kernels"] // 2
                  for c in SM90_CONFIGS.values() if c["kernels"] == 16 or c.get("row_windows"))
SM90_COL_MN = sum(c["kernels"] if c.get("register_windows") else c["kernels"] // 2
                  for c in SM90_CONFIGS.values())
SM90_REGISTER_A = sum(c["kernels"] for c in SM90_CONFIGS.values() if c.get("register_windows"))


def sm90_config_rules():
    """Per configuration: its wgmma shape, and multicast loads or split-K's
    distributed-shared-memory reduction (generic 8-byte stores into rank 0,
    remote arrivals released at cluster scope) as the configuration says."""
    rules = []
    for config, c in SM90_CONFIGS.items():
        loads = [r"^UTMALDG\.3D\.MULTICAST\b"] if c["multicast"] else []
        reduce = [r"^ST\.E\.64\b", r"^MEMBAR\.ALL\.GPU\b",
                  r"^SYNCS\.ARRIVE\.TRANS64\.RED\b"] if c["split_k"] else []
        # Row windows: the shifter warps' 32-bit shared loads, the odd
        # shifts' joins of one word's high half to the next one's low half
        # (PRMT selector 0x1054, which no other kernel has), and stores,
        # fenced for wgmma.
        windows = [r"^LDS\s", r"^PRMT\s.*\b0x1054\b", r"^STS\s",
                   r"^FENCE\.VIEW\.ASYNC\.S\b"] if c.get("row_windows") else []
        # Register windows: the consumers' 2-byte fragment loads, and every
        # HGMMA's A a register (none a shared-memory descriptor).
        in_registers = c.get("register_windows", False)
        fragments = [r"^LDS\.U16\b", r"^HGMMA\S* R\d+, R\d+, gdesc"] if in_registers else []
        in_flight = [r"^WARPGROUP\.DEPBAR\.LE gsb0, 0x%d$" % (0 if in_registers else 1)]
        # Split tiles: a piece's arrival counted at device scope, the last
        # arrival told to the warpgroup by a barrier reduction, the other
        # pieces' partials read from L2; no other configuration has them.
        pieces = [r"^ATOMG\.E\.ADD\.STRONG\.GPU\b", r"^BAR\.RED\.OR\b",
                  r"^LDG\.E\.128\.STRONG\.GPU\b"]
        split_tiles = c.get("split_tiles", False)
        rules.append(Rule(
            f"sm90 configuration {config}",
            sm90(config=str(config)),
            require=[rf"^HGMMA\.64x{c['n']}x16\.F32\b"] + in_flight + loads + reduce + windows
            + fragments + (pieces if split_tiles else []),
            forbid=[r"^HGMMA\.64x(?!" + str(c["n"]) + r"x)"]
            + ([] if c["multicast"] else [r"^UTMALDG\.3D\.MULTICAST\b"])
            + ([r"^HGMMA\S* R\d+, gdesc"] if in_registers else [])
            + ([] if split_tiles else pieces),
            count=c["kernels"],
        ))
    return rules


LOCAL_MEMORY = [r"^LDL\b", r"^STL\b"]


def sm100(config=r"\d+"):
    """The sm100 kernels of Config<AB, Out, kRowMN, kColMN, kConfig>."""
    return (r"^void bwgemm::sm100::gemm_kernel<bwgemm::sm100::Config<"
            rf"[\w:]+, [\w:]+, \w+, \w+, {config}> >\(bwgemm::GemmParams\)$")


# sm100's configurations (src/kernels/sm100/config.h kShapes): the CTA pair's
# cta_group::2 MMA, or each CTA's own cta_group::1 MMA, alone or splitting K;
# and how many kernels (4 type pairs x the operand layouts each is compiled
# for: all four, or the split-K pair's two with K-major tokens).
SM100_CONFIGS = {
    0: dict(pair=True, split_k=False, kernels=16),
    1: dict(pair=False, split_k=False, kernels=16),
    2: dict(pair=False, split_k=True, kernels=8),
}
SM100_KERNELS = sum(c["kernels"] for c in SM100_CONFIGS.values())


def sm100_config_rules():
    """Per configuration: the pair's 2-CTA MMA, commit multicast to both
    CTAs' barriers and 2-CTA TMA loads, and no 1-CTA MMA; or the 1-CTA forms
    and nothing of the pair's; with split-K, the partial tiles pushed into
    rank 0 (generic 8-byte stores to distributed shared memory, remote
    arrivals released at cluster scope). Optional, as the family is."""
    rules = []
    for config, c in SM100_CONFIGS.items():
        if c["pair"]:
            require = [r"^UTCHMMA\.2CTA\b", r"^UTCBAR\.2CTA\.MULTICAST\b",
                       r"^UTMALDG\S*\.2CTA\b"]
            forbid = [r"^UTCHMMA\s"]
        else:
            require = [r"^UTCHMMA\s", r"^UTCBAR\s", r"^UTMALDG\.3D\s"]
            forbid = [r"\.2CTA\b"]
        if c["split_k"]:
            require += [r"^ST\.E\.64\b", r"^MEMBAR\.ALL\.GPU\b",
                        r"^SYNCS\.ARRIVE\.TRANS64\.RED\b"]
        rules.append(Rule(
            f"sm100 configuration {config}",
            sm100(config=str(config)),
            require=require,
            forbid=forbid + ([] if c["split_k"] else [r"^ST\.E\.64\b"]),
            count=c["kernels"],
            optional=True,
        ))
    return rules


def decode(ab=r"[\w:]+", shape=r"\d+"):
    """The decode kernels of decode::Config<AB, Out, kShape>."""
    return (r"^void bwgemm::decode::decode_kernel<bwgemm::decode::Config<"
            rf"{ab}, [\w:]+, {shape}> >\(bwgemm::decode::DecodeParams\)$")


# 4 type pairs x the shapes of src/kernels/decode/config.h: 3 for a
# K-contiguous weight, 3 for a weight contiguous along its rows, then the
# first K-contiguous one three CTAs an SM, and in 8-row blocks two and three
# an SM.
DECODE_K_MAJOR_SHAPES = "[012678]"
DECODE_MN_MAJOR_SHAPES = "[345]"
DECODE_KERNELS = 4 * 9


@dataclass
class Rule:
    name: str
    kernels: str  # regex on the demangled kernel name
    require: list = field(default_factory=list)
    forbid: list = field(default_factory=list)
    count: Optional[int] = None  # exact number of matching kernels
    optional: bool = False
    static_smem: bool = False  # SHARED <= kStaticSmemAllowance


def static_smem_allowance():
    """kStaticSmemAllowance from src/kernels/common/smem_budget.h."""
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src",
                          "kernels", "common", "smem_budget.h")
    with open(header) as f:
        m = re.search(r"kStaticSmemAllowance = (\d+);", f.read())
    if m is None:
        sys.exit(f"check_sass: no kStaticSmemAllowance in {header}")
    return int(m.group(1))


RULES = [
    # Every sm90 instantiation (every configuration, type pair and operand
    # layout it is compiled for): TMA loads and stores, 16-byte stores, wgmma,
    # register reconfiguration, the grid-dependency wait and trigger. wgmma must not be serialized (ptxas reports
    # C7510/C7514/C7515 only as "info"): some HGMMA is issued without waiting
    # on its group (no gsb0), and the mainloop keeps one group in flight
    # (wgmma.wait_group 1; with A in registers a block's group is waited for
    # whole, per configuration below).
    Rule(
        "sm90 kernel",
        sm90(),
        require=[
            r"^HGMMA\.64x\d+x16\.F32\b",
            r"^HGMMA(?!.*\bgsb0\b)",
            r"^USETMAXREG\.TRY_ALLOC\.CTAPOOL\b",
            r"^USETMAXREG\.DEALLOC\.CTAPOOL\b",
            r"^UTMALDG\.3D\s",
            r"^UTMASTG\.3D\b",
            # D's rows that TMA cannot store: the warps' 16-byte stores.
            r"^STG\.E\.128\b",
            r"^SYNCS\.PHASECHK\.TRANS64\.TRYWAIT\b",
            # Programmatic dependent launch: griddepcontrol.wait and
            # .launch_dependents (persistent_launch.cpp sets the attribute).
            r"^ACQBULK\b",
            r"^PREEXIT\b",
        ],
        forbid=LOCAL_MEMORY + [r"^HMMA\b"],
        count=SM90_KERNELS,
    ),
    *sm90_config_rules(),
    Rule(
        "sm90 fp16 operands",
        sm90(ab="__half"),
        require=[r"^HGMMA\.64x\d+x16\.F32\s"],
        forbid=[r"^HGMMA\S*\.BF16"],
        count=SM90_KERNELS // 2,
    ),
    Rule(
        "sm90 bf16 operands",
        sm90(ab="__nv_bfloat16"),
        require=[r"^HGMMA\.64x\d+x16\.F32\.BF16\s"],
        forbid=[r"^HGMMA\.64x\d+x16\.F32\s"],
        count=SM90_KERNELS // 2,
    ),
    # wgmma's A is the row operand, B the column operand: an M/N-major one is
    # read transposed (.tnspA / .tnspB) by every HGMMA, a K-major one by none.
    Rule(
        "sm90 M/N-major row operand",
        sm90(row_mn="true", config=SM90_SMEM_A),
        require=[r"^HGMMA\S* .*\.tnspA"],
        forbid=[r"^HGMMA(?!.*\.tnspA)"],
        count=SM90_ROW_MN,
    ),
    Rule(
        "sm90 K-major row operand",
        sm90(row_mn="false"),
        forbid=[r"^HGMMA.*\.tnspA"],
        count=SM90_KERNELS - SM90_ROW_MN - SM90_REGISTER_A,
    ),
    Rule(
        "sm90 M/N-major column operand",
        sm90(col_mn="true"),
        require=[r"^HGMMA\S* .*\.tnspB"],
        forbid=[r"^HGMMA(?!.*\.tnspB)"],
        count=SM90_COL_MN,
    ),
    Rule(
        "sm90 K-major column operand",
        sm90(col_mn="false"),
        forbid=[r"^HGMMA.*\.tnspB"],
        count=SM90_KERNELS - SM90_COL_MN,
    ),
    # The sm100 (tcgen05) kernels of src/kernels/sm100, for every target they
    # are built for: tcgen05 MMAs, TMA stores, the warps' 16-byte stores of D's
    # rows TMA cannot store, and neither Hopper's wgmma nor the legacy mma;
    # then each configuration's own forms. Optional: skipped for binaries
    # without kernels in namespace bwgemm::sm100.
    Rule(
        "sm100 kernel",
        r"^(void )?bwgemm::sm100::",  # (templates demangle with "void ")
        require=[
            r"^UTCHMMA\b",
            r"^UTCBAR\b",
            r"^UTMASTG\.3D\b",
            r"^STG\.E\.128\b",
        ],
        forbid=LOCAL_MEMORY + [r"^HGMMA\b", r"^HMMA\b"],
        count=SM100_KERNELS,
        optional=True,
        static_smem=True,
    ),
    *sm100_config_rules(),
    # The decode kernel (src/kernels/decode): mma.sync fed by 16-byte loads,
    # the weight streamed past L1 in 256-byte L2 fetches, the tokens through
    # the read-only path; programmatic dependent launch; no TMA, no wgmma.
    Rule(
        "decode kernel",
        decode(),
        require=[
            r"^HMMA\.16816\.F32\b",
            r"^LDG\.E\.NA\.LTC256B\.128\.CONSTANT\b",
            r"^LDG\.E\.128\.CONSTANT\b",
            r"^ACQBULK\b",
            r"^PREEXIT\b",
        ],
        forbid=LOCAL_MEMORY + [r"^HGMMA\b", r"^UTMALDG\b"],
        count=DECODE_KERNELS,
    ),
    # The next two rules: the K-contiguous weight's rows are asked of L2 (a
    # bulk prefetch) before the grid-dependency wait; the NN shapes prefetch
    # nothing.
    Rule(
        "decode kernel, weight contiguous along its rows",
        decode(shape=DECODE_MN_MAJOR_SHAPES),
        require=[r"^MOVM\.16\.MT88\b"],
        forbid=[r"^UBLKPF\b"],
        count=4 * 3,
    ),
    Rule(
        "decode kernel, K-contiguous weight",
        decode(shape=DECODE_K_MAJOR_SHAPES),
        require=[r"^UBLKPF\.L2\b"],
        forbid=[r"^MOVM\b"],
        count=4 * 6,
    ),
    Rule(
        "decode fp16 operands",
        decode(ab="__half"),
        require=[r"^HMMA\.16816\.F32\s"],
        forbid=[r"^HMMA\S*\.BF16"],
        count=DECODE_KERNELS // 2,
    ),
    Rule(
        "decode bf16 operands",
        decode(ab="__nv_bfloat16"),
        require=[r"^HMMA\.16816\.F32\.BF16\s"],
        forbid=[r"^HMMA\.16816\.F32\s"],
        count=DECODE_KERNELS // 2,
    ),
    # The copy of an operand TMA cannot address into 16-byte rows
    # (src/kernels/common/pack.cu), built for sm_90, sm_100 and sm_103: one
    # 16-byte store per thread and round.
    Rule(
        "operand pack",
        r"^bwgemm::\(anonymous namespace\)::pack16_kernel\(",
        require=[r"^STG\.E\.128\b"],
        forbid=LOCAL_MEMORY,
        count=3,
    ),
    # The transposed copy of a few N-major columns of op(B) (pack.cu, same
    # architectures): its eight 2-byte loads gathered into one 16-byte store.
    Rule(
        "transposed copy",
        r"^bwgemm::\(anonymous namespace\)::transpose16_kernel\(",
        require=[r"^STG\.E\.128\b"],
        forbid=LOCAL_MEMORY,
        count=3,
    ),
]


def find_cuobjdump():
    """cuobjdump's path, or None. `cuobjdump -sass` runs nvdisasm from PATH or
    from cuobjdump's own directory, so one of them must hold it too."""
    found = shutil.which("cuobjdump")
    if found is None:
        # scripts/install-deps.sh installs the wheels with pip --target here.
        roots = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".tools",
                              "python", "nvidia")]
        try:
            import nvidia  # the namespace package of NVIDIA's CUDA wheels
            roots += list(nvidia.__path__)
        except ImportError:
            pass
        wheel = [os.path.join(root, "cu13", "bin", "cuobjdump") for root in roots]
        found = next((os.path.normpath(path) for path in wheel if os.access(path, os.X_OK)),
                     None)
    if found is None:
        return None
    beside = os.path.join(os.path.dirname(found), "nvdisasm")
    return found if shutil.which("nvdisasm") or os.access(beside, os.X_OK) else None


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"check_sass: {' '.join(cmd)} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def demangle(names):
    if not names:
        return {}
    out = subprocess.run(["c++filt"], input="\n".join(names) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    return dict(zip(names, out))


# "arch =" names the cubin's target in both listings; -sass's "code for" line
# drops a family target's suffix (sm_100f: "code for sm_100").
ARCH = re.compile(r"^\s*arch = (sm_\w+)")
FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")
RESOURCES = re.compile(r"^\s*Function (\S+):\s*$")
USAGE = re.compile(r"\b(REG|STACK|LOCAL|SHARED):(\d+)")


def parse_sass(text):
    """{(arch, mangled name): [instruction, ...]}, predicates stripped."""
    kernels, arch, current = {}, None, None
    for line in text.splitlines():
        if m := ARCH.match(line):
            arch = m.group(1)
        elif m := FUNCTION.match(line):
            current = kernels.setdefault((arch, m.group(1)), [])
        elif current is not None and (m := INSTRUCTION.match(line)):
            current.append(re.sub(r"^@!?U?P\w+\s+", "", m.group(1)))
    return kernels


def parse_resources(text):
    """{(arch, mangled name): {"REG": n, "STACK": n, "LOCAL": n}}."""
    usage, arch, current = {}, None, None
    for line in text.splitlines():
        if m := ARCH.match(line):
            arch = m.group(1)
        elif m := RESOURCES.match(line):
            current = (arch, m.group(1))
        elif current is not None and USAGE.search(line):
            usage[current] = {k: int(v) for k, v in USAGE.findall(line)}
            current = None
    return usage


SM90_CONFIG_OF = re.compile(r"^void bwgemm::sm90::gemm_kernel<bwgemm::sm90::Config<.*, (\d+)> >")
SETMAXNREG = re.compile(r"^USETMAXREG\.(TRY_ALLOC|DEALLOC)\.CTAPOOL\s+(?:\w+,\s*)?(0x[0-9a-f]+|\d+)")


def register_pool_problem(name, code, registers):
    """Why an sm90 kernel's registers do not fit, or None. The CTAs per SM its
    configuration is built for must fit the register file together. The
    producer warpgroup gives registers back and each consumer warpgroup asks
    for more, all from the CTA's pool: what every thread got at launch (REG).
    A request the pool cannot meet never returns: the kernel hangs."""
    m = SM90_CONFIG_OF.match(name)
    if m is None:
        return None
    config = SM90_CONFIGS[int(m.group(1))]
    consumers, ctas = config["consumers"], config.get("ctas_per_sm", 1)
    threads = 128 * (1 + consumers)
    if registers * threads * ctas > 65536:
        return (f"{registers} registers a thread at launch: {ctas} CTAs of {threads} threads "
                f"do not fit an SM's 65536 (config.h, Shape::ctas_per_sm)")
    found = [hit.groups() for hit in map(SETMAXNREG.match, code) if hit]
    kinds = sorted(kind for kind, _ in found)
    if kinds != ["DEALLOC", "TRY_ALLOC"]:
        return f"expected one register release and one request, found {found}"
    value = {kind: int(v, 0) for kind, v in found}
    needed = value["DEALLOC"] + consumers * value["TRY_ALLOC"]
    if needed > (1 + consumers) * registers:
        return (f"setmaxnreg asks for {needed} registers per thread over {1 + consumers} "
                f"warpgroups ({value['DEALLOC']} + {consumers} x {value['TRY_ALLOC']}), "
                f"more than the {(1 + consumers) * registers} they hold at launch "
                f"({registers} each): the consumers would wait forever")
    return None


def check(binaries):
    cuobjdump = find_cuobjdump()
    if cuobjdump is None:
        sys.exit("check_sass: cuobjdump and nvdisasm not found on PATH nor in the "
                 "nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm wheels; run scripts/install-deps.sh")
    kernels, usage = {}, {}
    for binary in binaries:
        for (arch, name), code in parse_sass(run([cuobjdump, "-sass", binary])).items():
            kernels[(binary, arch, name)] = code
        for (arch, name), res in parse_resources(run([cuobjdump, "-res-usage", binary])).items():
            usage[(binary, arch, name)] = res
    if not kernels:
        sys.exit(f"check_sass: no kernel code in {' '.join(binaries)}")
    names = demangle(sorted({name for _, _, name in kernels}))

    def label(key):
        return f"{names[key[2]]} ({key[1]}, {key[0]})"

    failures = []
    allowance = static_smem_allowance()
    checked_by = {key: [] for key in kernels}
    for rule in RULES:
        selected = [key for key in kernels if re.search(rule.kernels, names[key[2]])]
        if not selected and rule.optional:
            print(f"skip: {rule.name}: no such kernel built")
            continue
        found = []
        if rule.count is not None and len(selected) != rule.count:
            found.append(f"{rule.name}: {len(selected)} kernels, expected {rule.count}")
        elif not selected:
            found.append(f"{rule.name}: no kernel matches {rule.kernels!r}")
        for key in selected:
            checked_by[key].append(rule.name)
            code = kernels[key]
            shared = usage.get(key, {}).get("SHARED")
            if rule.static_smem and (shared is None or shared > allowance):
                found.append(f"{label(key)}: static shared memory {shared} bytes, more than "
                             f"kStaticSmemAllowance = {allowance} ({rule.name})")
            for pattern in rule.require:
                if not any(re.search(pattern, ins) for ins in code):
                    found.append(f"{label(key)}: no instruction matches {pattern!r} ({rule.name})")
            for pattern in rule.forbid:
                hits = [ins for ins in code if re.search(pattern, ins)]
                if hits:
                    found.append(f"{label(key)}: {len(hits)} instructions match forbidden "
                                 f"{pattern!r} ({rule.name}), e.g. {hits[0]!r}")
        print(f"{'FAIL' if found else 'ok'}: {rule.name}: {len(selected)} kernels")
        failures += found

    for key, rules in checked_by.items():
        if not rules:
            failures.append(f"{label(key)}: no rule checks this kernel; add one to {__file__}")
        res = usage.get(key)
        if res is None:
            failures.append(f"{label(key)}: cuobjdump -res-usage reports nothing for it")
        elif res.get("STACK") != 0 or res.get("LOCAL") != 0:
            failures.append(f"{label(key)}: stack frame {res.get('STACK')} bytes, local memory "
                            f"{res.get('LOCAL')} bytes (spills?); expected 0 and 0")
        if res is not None and (problem := register_pool_problem(names[key[2]], kernels[key],
                                                                  res.get("REG", 0))):
            failures.append(f"{label(key)}: {problem}")

    for failure in failures:
        print(f"FAIL: {failure}")
    if failures:
        return 1
    print(f"check_sass: {len(kernels)} kernels passed (no stack, no local memory)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1:] == ["--find-tools"]:
        tool = find_cuobjdump()
        print(tool or "cuobjdump and nvdisasm not found")
        sys.exit(tool is None)
    sys.exit(check(sys.argv[1:]))
