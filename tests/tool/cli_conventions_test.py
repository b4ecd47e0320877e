#!/usr/bin/python3
"""The command-line conventions of pmoe-sim, pmoe-sweep and pmoe-analyze, end to end
(docs/guide/command-line.md): --version, per-command --help, --json parsed by Python's json for
every command that has it, "did you mean" for a misspelt option and config key, the old
spellings as aliases, wrong-kind files, an unswept axis, exit statuses.

Usage: cli_conventions_test.py PMOE_SIM PMOE_SWEEP PMOE_ANALYZE WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

SIM, SWEEP, ANALYZE, WORK = sys.argv[1:5]


def run(*args):
    r = subprocess.run(list(args), capture_output=True, text=True, timeout=240)
    return r.returncode, r.stdout, r.stderr


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


class Conventions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        shutil.rmtree(WORK, ignore_errors=True)
        os.makedirs(WORK)
        # Four cells over model.l and N, a few fast trials: a complete result file.
        cls.config = write("tiny.ini", "name = tiny\nseed = 2\ntrials = 3\n"
                                       "N_test = 100\n[model]\nm = 10\nepochs = 5\n"
                                       "[grid]\nmodel.l = 2,4\nN = 40,80\n")
        cls.result = os.path.join(WORK, "tiny.h5")
        status, out, err = run(SWEEP, "run", cls.config, "--out", cls.result, "--json")
        assert status == 0, err
        cls.run_json = json.loads(out)

    def test_version(self):
        for tool, name in ((SIM, "pmoe-sim"), (SWEEP, "pmoe-sweep"), (ANALYZE, "pmoe-analyze")):
            status, out, err = run(tool, "--version")
            self.assertEqual(status, 0, err)
            self.assertTrue(out.startswith(name + " "), out)
            self.assertIn("numerics version ", out)
            self.assertIn("build compiler=", out)

    def test_per_command_help(self):
        for tool, commands in ((SWEEP, ["run", "plan", "slurm", "missing", "merge", "status"]),
                               (ANALYZE, ["summary", "sample-complexity", "exponent", "table"])):
            for command in commands:
                status, out, err = run(tool, command, "--help")
                self.assertEqual(status, 0, err)
                name = os.path.basename(tool).replace("-toy", "")
                # The command's own usage and options, not the whole tool's list.
                self.assertIn("usage: %s %s" % (name, command), out)
                self.assertIn("--help", out)
                self.assertIn("Exit status", out)
                others = [c for c in commands if c != command and len(c) > 5]
                for other in others:
                    self.assertNotIn("usage: %s %s" % (name, other), out)
        status, out, _ = run(SWEEP, "run", "--help")
        self.assertIn("--checkpoint-seconds", out)
        self.assertNotIn("--shards K", out)  # slurm's option, not run's
        status, out, _ = run(SIM, "--help")
        self.assertEqual(status, 0)
        self.assertIn("--n-test", out)
        self.assertIn("--N_test", out)  # the alias is listed

    def test_json_outputs_parse(self):
        self.assertEqual(self.run_json["ran"], 12)
        self.assertFalse(self.run_json["interrupted"])
        status, out, err = run(SIM, "--l", "2", "--m", "10", "--N", "40", "--n-test", "100",
                               "--epochs", "5", "--trials", "2", "--json")
        self.assertEqual(status, 0, err)
        self.assertEqual(len(json.loads(out)["trials"]), 2)
        status, out, err = run(SWEEP, "plan", self.config, "--out", self.result, "--json")
        self.assertEqual(status, 0, err)
        self.assertEqual(json.loads(out)["cells"], 4)
        status, out, err = run(SWEEP, "status", self.result, "--json")
        self.assertEqual(status, 0, err)
        doc = json.loads(out)
        self.assertEqual(doc["files"][0]["held"], 12)
        self.assertTrue(doc["files"][0]["complete"])
        elsewhere = os.path.join(os.path.dirname(self.result), "sharded.h5")
        status, out, err = run(SWEEP, "missing", self.config, "--shards", "2", "--out",
                               elsewhere, "--json")
        self.assertEqual(status, 1, err)  # no shard has run
        doc = json.loads(out)
        self.assertEqual([s["condition"] for s in doc["shard_list"]], ["absent", "absent"])
        self.assertIn("--shard 1/2", doc["advice"])
        # The complete merged file answers for its shards (issue 44): nothing is missing.
        status, out, err = run(SWEEP, "missing", self.config, "--shards", "2", "--out",
                               self.result, "--json")
        self.assertEqual(status, 0, err)
        self.assertTrue(json.loads(out)["complete"])
        for command in ("summary", "sample-complexity", "table"):
            status, out, err = run(ANALYZE, command, self.result, "--json")
            self.assertEqual(status, 0, err)
            json.loads(out)
        status, out, err = run(ANALYZE, "exponent", self.result, "--over", "l", "--json",
                               "--bootstrap", "20")
        self.assertEqual(status, 0, err)
        self.assertIn("exponents", json.loads(out))
        # merge of the two shards of a sharded run
        for i in (1, 2):
            status, _, err = run(SWEEP, "run", self.config, "--out",
                                 os.path.join(WORK, "sharded.h5"), "--shard", "%d/2" % i)
            self.assertEqual(status, 0, err)
        shards = os.path.join(WORK, "sharded.shards")
        status, out, err = run(SWEEP, "merge", os.path.join(WORK, "merged.h5"),
                               os.path.join(shards, "shard-1-of-2.h5"),
                               os.path.join(shards, "shard-2-of-2.h5"), "--json")
        self.assertEqual(status, 0, err)
        self.assertEqual(json.loads(out)["trials"], 12)

    def test_old_spellings_are_aliases(self):
        status, _, err = run(SIM, "--l", "2", "--m", "10", "--N", "40", "--N_test", "100",
                             "--model.router_epochs", "3", "--model", "separate",
                             "--epochs", "2", "--trials", "1", "--json")
        self.assertEqual(status, 0, err)
        status, _, err = run(SWEEP, "plan", self.config, "--out", self.result)
        self.assertEqual(status, 0, err)
        status, _, err = run(ANALYZE, "sample-complexity", self.result, "--target_accuracy",
                             "0.9", "--bootstrap", "10")
        self.assertEqual(status, 0, err)

    def test_did_you_mean_option(self):
        status, out, err = run(SWEEP, "run", self.config, "--checkpoint-second", "5")
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("did you mean --checkpoint-seconds?", err)
        status, _, err = run(SIM, "--data.delta_rr", "0.1")
        self.assertEqual(status, 2)
        self.assertIn("did you mean --data.delta-r?", err)
        status, _, err = run(ANALYZE, "summary", self.result, "--jsn")
        self.assertEqual(status, 2)
        self.assertIn("did you mean --json?", err)
        status, _, err = run(SWEEP, "stauts", self.result)
        self.assertEqual(status, 2)
        self.assertIn("did you mean status?", err)

    def test_did_you_mean_config_key(self):
        bad = write("typo.ini", "name = typo\n[model]\nepocs = 3\n")
        status, _, err = run(SWEEP, "plan", bad)
        self.assertEqual(status, 2)
        self.assertIn("model.epocs", err)
        self.assertIn('did you mean "model.epochs"?', err)
        status, _, err = run(SIM, "--config", bad)
        self.assertEqual(status, 2)
        self.assertIn('did you mean "model.epochs"?', err)

    def test_wrong_kind_files(self):
        status, _, err = run(SWEEP, "run", self.result)
        self.assertEqual(status, 2)
        self.assertIn("this is an HDF5 result file, not a config", err)
        self.assertNotIn("control character", err)
        status, _, err = run(SIM, "--config", self.result)
        self.assertEqual(status, 2)
        self.assertIn("this is an HDF5 result file, not a config", err)
        for args in ((ANALYZE, "summary", self.config), (SWEEP, "status", self.config)):
            status, _, err = run(*args)
            self.assertEqual(status, 2, args)
            self.assertIn("not an HDF5 result file", err)
            self.assertIn("pmoe-sweep run " + self.config, err)

    def test_unswept_axis_is_an_error(self):
        status, out, err = run(ANALYZE, "exponent", self.result, "--over", "k")
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("model.k: not an axis swept in", err)
        self.assertIn("swept: model.l", err)

    def test_report_names_the_wrong_kind_of_file(self):
        """pmoe-analyze report CONFIG.ini: the tool's own message, not HDF5's (issue 45)."""
        status, out, err = run(ANALYZE, "report", self.config)
        self.assertEqual(status, 2)
        self.assertTrue(err.startswith("pmoe-analyze: error: "), err)
        self.assertIn("not an HDF5 result file", err)
        self.assertIn("pmoe-sweep run " + self.config, err)
        self.assertNotIn("signature", err)

    def test_derived_axis_over_unswept_parameters_is_refused(self):
        config = write("p_only.ini", "name = p_only\nseed = 2\ntrials = 2\nN_test = 100\n"
                                     "[model]\nm = 10\nepochs = 3\n[grid]\ndata.p = 6,8\n"
                                     "N = 40,80\n")
        result = os.path.join(WORK, "p_only.h5")
        status, _, err = run(SWEEP, "run", config, "--out", result)
        self.assertEqual(status, 0, err)
        status, out, err = run(ANALYZE, "exponent", result, "--over", "n/l")
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("data.n, model.l", err)
        self.assertIn("swept: data.p, N", err)
        # One of them swept (l here, n fixed): n/l varies, and is fitted.
        status, _, err = run(ANALYZE, "exponent", self.result, "--over", "n/l")
        self.assertEqual(status, 0, err)

    def test_did_you_mean_top_level_key_and_section(self):
        for text, hint in (("name = t\ntrails = 10\n", 'did you mean "trials"?'),
                           ("name = t\n[gird]\nN = 10,20\n", "did you mean [grid]?")):
            bad = write("typo_top.ini", text)
            for args in ((SWEEP, "plan", bad), (SIM, "--config", bad)):
                status, _, err = run(*args)
                self.assertEqual(status, 2, args)
                self.assertIn(hint, err)

    def test_summary_fits_100_columns(self):
        status, out, err = run(ANALYZE, "summary", self.result)
        self.assertEqual(status, 0, err)
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 100, out)
        self.assertIn("--wide", out)  # the columns left out are named
        self.assertIn("router_hit", out)
        status, wide, err = run(ANALYZE, "summary", self.result, "--wide")
        self.assertEqual(status, 0, err)
        self.assertGreater(max(len(line) for line in wide.splitlines()), 100)
        self.assertNotIn("more columns", wide)
        self.assertEqual(len(wide.splitlines()), 1 + 4)  # the header and the four cells

    def test_option_of_another_command(self):
        status, _, err = run(SWEEP, "run", self.config, "--shards", "2")
        self.assertEqual(status, 2)
        self.assertIn("options of the slurm, missing, watch and look-decide commands", err)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
