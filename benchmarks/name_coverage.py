"""Coverage of hardware and model names as the field writes them (issue #14).

No evidence document is read. The field's product lines and model families are listed
below with the spellings benchmark pages use (case, hyphens, spaces, memory and size
suffixes, counts, repository ids, Chinese context); each spelling is put into the places
a page names a condition (a sentence, a table row, a column header, a set-up line, a
heading, a caption) around one measured number, the extractor reads the little page, and
the number's hardware or model is scored as `evidence_bench` scores it.

Run: .venv/bin/python benchmarks/name_coverage.py [--verbose] [--field hardware|model]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evidence_bench import name_matches  # noqa: E402

from research_radar.extract.claims import extract_claims  # noqa: E402

VALUE = 123.4
"""The measured number every little page holds."""

# (spelling as a page writes it, the name a labeller writes; `a/b`: either)
HARDWARE: list[tuple[str, str]] = [
    # NVIDIA data centre
    ("A100", "A100"),
    ("A100-80G", "A100"),
    ("A100 80GB", "A100"),
    ("A100-SXM4-80GB", "A100"),
    ("A100-PCIE-40GB", "A100"),
    ("NVIDIA A100-SXM4-40GB", "A100"),
    ("A800 80G", "A800"),
    ("A800-SXM4-80GB", "A800"),
    ("H100", "H100"),
    ("H100 SXM5", "H100"),
    ("H100-SXM5-80GB", "H100"),
    ("NVIDIA H100 80GB HBM3", "H100"),
    ("H100 NVL", "H100"),
    ("H800", "H800"),
    ("H800 PCIe", "H800"),
    ("H20", "H20"),
    ("H20-96G", "H20"),
    ("H200", "H200"),
    ("H200 141GB", "H200"),
    ("B200", "B200"),
    ("GB200", "GB200"),
    ("GB200 NVL72", "GB200"),
    ("B300", "B300"),
    ("GH200", "GH200"),
    ("L40S", "L40S"),
    ("L40", "L40"),
    ("L20", "L20"),
    ("L4", "L4"),
    ("A10", "A10"),
    ("A10G", "A10G"),
    ("A30", "A30"),
    ("A40", "A40"),
    ("V100", "V100"),
    ("V100S", "V100S"),
    ("V100-SXM2-32GB", "V100"),
    ("Tesla V100-PCIE-16GB", "V100"),
    ("Tesla T4", "T4"),
    ("T4", "T4"),
    ("Tesla P40", "P40"),
    ("Tesla P100", "P100"),
    ("Tesla P4", "P4"),
    ("Tesla K80", "K80"),
    ("DGX A100", "A100"),
    ("DGX H100", "H100"),
    ("HGX H100", "H100"),
    ("RTX A6000", "RTX A6000"),
    ("A6000", "RTX A6000"),
    ("RTX A5000", "RTX A5000"),
    ("RTX A4000", "RTX A4000"),
    ("A4000", "RTX A4000"),
    ("RTX 6000 Ada", "RTX 6000 Ada"),
    ("RTX 4000 Ada", "RTX 4000 Ada"),
    ("RTX PRO 6000", "RTX PRO 6000"),
    ("Quadro RTX 8000", "Quadro RTX 8000"),
    ("Quadro RTX 6000", "Quadro RTX 6000"),
    ("TITAN RTX", "TITAN RTX"),
    ("Titan V", "TITAN V"),
    # NVIDIA consumer
    ("RTX 4090", "RTX 4090"),
    ("RTX4090", "RTX 4090"),
    ("rtx 4090", "RTX 4090"),
    ("RTX-4090", "RTX 4090"),
    ("GeForce RTX 4090", "RTX 4090"),
    ("NVIDIA GeForce RTX 4090", "RTX 4090"),
    ("4090", "RTX 4090"),
    ("4090 24G", "RTX 4090"),
    ("RTX 4090D", "RTX 4090D"),
    ("4090D", "RTX 4090D"),
    ("RTX 4080", "RTX 4080"),
    ("RTX 4080 SUPER", "RTX 4080 SUPER"),
    ("RTX 4070 Ti", "RTX 4070 Ti"),
    ("RTX 4070", "RTX 4070"),
    ("RTX 4060 Ti", "RTX 4060 Ti"),
    ("RTX 4060", "RTX 4060"),
    ("4060", "RTX 4060"),
    ("4070", "RTX 4070"),
    ("RTX 3090", "RTX 3090"),
    ("3090", "RTX 3090"),
    ("RTX 3090 Ti", "RTX 3090 Ti"),
    ("RTX 3080", "RTX 3080"),
    ("3080", "RTX 3080"),
    ("3080 Ti", "RTX 3080 Ti"),
    ("RTX 3070", "RTX 3070"),
    ("3070", "RTX 3070"),
    ("RTX 3060", "RTX 3060"),
    ("3060 12G", "RTX 3060"),
    ("RTX 2080 Ti", "RTX 2080 Ti"),
    ("2080Ti", "RTX 2080 Ti"),
    ("RTX 2080", "RTX 2080"),
    ("2080", "RTX 2080"),
    ("RTX 2070", "RTX 2070"),
    ("RTX 2060", "RTX 2060"),
    ("GTX 1080 Ti", "GTX 1080 Ti"),
    ("1080Ti", "GTX 1080 Ti"),
    ("GTX 1080", "GTX 1080"),
    ("GTX 1660 Ti", "GTX 1660 Ti"),
    ("GTX 1650", "GTX 1650"),
    ("RTX 5090", "RTX 5090"),
    ("5090", "RTX 5090"),
    ("RTX 5080", "RTX 5080"),
    ("RTX 5070 Ti", "RTX 5070 Ti"),
    ("RTX 5060 Ti", "RTX 5060 Ti"),
    ("RTX 4090 Laptop", "RTX 4090 Laptop"),
    # NVIDIA embedded
    ("Jetson AGX Orin", "Jetson AGX Orin"),
    ("Jetson AGX Orin 64GB", "Jetson AGX Orin"),
    ("AGX Orin", "Jetson AGX Orin"),
    ("Jetson Orin Nano", "Jetson Orin Nano"),
    ("Orin Nano", "Jetson Orin Nano"),
    ("Jetson Orin NX", "Jetson Orin NX"),
    ("Jetson Xavier NX", "Jetson Xavier NX"),
    ("Jetson AGX Xavier", "Jetson AGX Xavier"),
    ("Jetson Nano", "Jetson Nano"),
    ("Jetson TX2", "Jetson TX2"),
    ("Jetson Thor", "Jetson Thor"),
    # AMD
    ("MI300X", "MI300X"),
    ("AMD Instinct MI300X", "MI300X"),
    ("MI325X", "MI325X"),
    ("MI355X", "MI355X"),
    ("MI308X", "MI308X"),
    ("MI250X", "MI250X"),
    ("MI250", "MI250"),
    ("MI210", "MI210"),
    ("MI100", "MI100"),
    ("Radeon RX 7900 XTX", "Radeon RX 7900 XTX"),
    ("RX 7900 XTX", "Radeon RX 7900 XTX"),
    ("7900XTX", "Radeon RX 7900 XTX"),
    ("RX 6800 XT", "Radeon RX 6800 XT"),
    ("RX 9070 XT", "Radeon RX 9070 XT"),
    ("Radeon PRO W7900", "Radeon PRO W7900"),
    ("Radeon 780M", "Radeon 780M"),
    ("Radeon 8060S", "Radeon 8060S"),
    ("Ryzen AI Max+ 395", "Ryzen AI Max+ 395"),
    ("Ryzen 9 7950X", "Ryzen 9 7950X"),
    ("Ryzen 7 7840HS", "Ryzen 7 7840HS"),
    ("AMD EPYC 7763", "EPYC 7763"),
    ("EPYC 9654", "EPYC 9654"),
    # Intel
    ("Xeon Platinum 8380", "Xeon Platinum 8380"),
    ("Intel Xeon Platinum 8480+", "Xeon Platinum 8480+"),
    ("Intel(R) Xeon(R) Gold 6330 CPU @ 2.00GHz", "Xeon Gold 6330"),
    ("Xeon Gold 6248R", "Xeon Gold 6248R"),
    ("Xeon Silver 4210", "Xeon Silver 4210"),
    ("Xeon E5-2680 v4", "Xeon E5-2680 v4"),
    ("Xeon Max 9480", "Xeon Max 9480"),
    ("Sapphire Rapids", "Sapphire Rapids"),
    ("Gaudi2", "Gaudi 2"),
    ("Gaudi 3", "Gaudi 3"),
    ("Intel Gaudi2", "Gaudi 2"),
    ("Arc A770", "Arc A770"),
    ("Arc B580", "Arc B580"),
    ("Data Center GPU Max 1550", "Data Center GPU Max 1550"),
    ("Core Ultra 7 155H", "Core Ultra 7 155H"),
    ("Core Ultra 9 285K", "Core Ultra 9 285K"),
    ("Core i9-13900K", "Core i9-13900K"),
    ("i7-12700H", "Core i7-12700H"),
    ("i9 13900K", "Core i9-13900K"),
    ("Core i7-10700", "Core i7-10700"),
    # Apple
    ("Apple M1", "M1"),
    ("M1 Max", "M1 Max"),
    ("M2 Pro", "M2 Pro"),
    ("M2 Ultra", "M2 Ultra"),
    ("M3 Max", "M3 Max"),
    ("M4 Pro", "M4 Pro"),
    ("Apple M4", "M4"),
    ("MacBook Pro M1 Max", "M1 Max"),
    ("Mac Studio M2 Ultra", "M2 Ultra"),
    ("Mac mini M4", "M4"),
    # Huawei, Chinese vendors
    ("Ascend 910B", "Ascend 910B"),
    ("昇腾910B", "Ascend 910B"),
    ("昇腾 910B", "Ascend 910B"),
    ("910B", "Ascend 910B"),
    ("Ascend 910B3", "Ascend 910B3"),
    ("Ascend 910B4", "Ascend 910B4"),
    ("Ascend 910", "Ascend 910"),
    ("Ascend 310P", "Ascend 310P"),
    ("Ascend 310P3", "Ascend 310P3/Ascend 310P"),
    ("Atlas 800T A2", "Atlas 800T A2"),
    ("Atlas 800I A2", "Atlas 800I A2"),
    ("Atlas 300I Duo", "Atlas 300I Duo"),
    ("Kunpeng 920", "Kunpeng 920"),
    ("鲲鹏920", "Kunpeng 920"),
    ("Kunlun R200", "Kunlun R200"),
    ("昆仑芯 P800", "Kunlun P800"),
    ("MLU370-X8", "MLU370-X8/MLU370"),
    ("MLU590", "MLU590"),
    ("寒武纪MLU370", "MLU370"),
    ("海光DCU Z100", "DCU Z100"),
    ("Hygon K100", "DCU K100"),
    ("MTT S4000", "MTT S4000"),
    ("沐曦 C500", "MetaX C500"),
    # mobile and edge
    ("Snapdragon 8 Gen 2", "Snapdragon 8 Gen 2"),
    ("Snapdragon 8 Gen 3", "Snapdragon 8 Gen 3"),
    ("骁龙8 Gen2", "Snapdragon 8 Gen 2"),
    ("Snapdragon 8+ Gen 1", "Snapdragon 8+ Gen 1"),
    ("Snapdragon 888", "Snapdragon 888"),
    ("骁龙865", "Snapdragon 865"),
    ("Snapdragon 8 Elite", "Snapdragon 8 Elite"),
    ("Snapdragon X Elite", "Snapdragon X Elite"),
    ("Dimensity 9300", "Dimensity 9300"),
    ("天玑9300", "Dimensity 9300"),
    ("Kirin 9000", "Kirin 9000"),
    ("麒麟990", "Kirin 990"),
    ("Exynos 2400", "Exynos 2400"),
    ("Google Tensor G3", "Tensor G3"),
    ("Pixel 8 Pro", "Pixel 8 Pro"),
    ("iPhone 15 Pro", "iPhone 15 Pro"),
    ("Raspberry Pi 4", "Raspberry Pi 4"),
    ("Raspberry Pi 5", "Raspberry Pi 5"),
    ("Raspberry Pi 4B", "Raspberry Pi 4B/Raspberry Pi 4"),
    ("树莓派4B", "Raspberry Pi 4B/Raspberry Pi 4"),
    ("RK3588", "RK3588"),
    # cloud
    ("TPU v4", "TPU v4"),
    ("TPU v5e", "TPU v5e"),
    ("TPU v5p", "TPU v5p"),
    ("Graviton3", "Graviton3"),
    ("AWS Graviton4", "Graviton4"),
    ("Ampere Altra", "Ampere Altra"),
    ("Trainium2", "Trainium2"),
    ("Inferentia2", "Inferentia2"),
    ("p4d.24xlarge", "A100/p4d.24xlarge"),
    ("p5.48xlarge", "H100/p5.48xlarge"),
    ("g5.xlarge", "A10G/g5.xlarge"),
    ("g5.12xlarge", "A10G/g5.12xlarge"),
    ("g4dn.xlarge", "T4/g4dn.xlarge"),
    ("g6.xlarge", "L4/g6.xlarge"),
    ("g6e.xlarge", "L40S/g6e.xlarge"),
    ("p3.2xlarge", "V100/p3.2xlarge"),
    ("a2-highgpu-1g", "A100/a2-highgpu-1g"),
    ("a3-highgpu-8g", "H100/a3-highgpu-8g"),
    ("g2-standard-4", "L4/g2-standard-4"),
]

# model spellings
MODELS: list[tuple[str, str]] = [
    ("Llama-2-7B", "Llama-2-7B"),
    ("Llama-2-7b-hf", "Llama-2-7B"),
    ("llama-2-7b-chat-hf", "Llama-2-7B"),
    ("meta-llama/Llama-2-13b-chat-hf", "Llama-2-13B"),
    ("LLaMA2-7B", "Llama-2-7B"),
    ("LLaMA-2-70B", "Llama-2-70B"),
    ("Llama 2 7B", "Llama-2-7B"),
    ("llama2-7b", "Llama-2-7B"),
    ("llama2_7b", "Llama-2-7B"),
    ("Llama_2_13B", "Llama-2-13B"),
    ("llama-2-7b.Q4_0.gguf", "Llama-2-7B"),
    ("LLaMA-7B", "LLaMA-7B"),
    ("llama-7b", "LLaMA-7B"),
    ("LLaMA-65B", "LLaMA-65B"),
    ("Llama3-8B-Instruct", "Llama-3-8B"),
    ("Meta-Llama-3-8B-Instruct", "Llama-3-8B"),
    ("meta-llama/Meta-Llama-3.1-8B-Instruct", "Llama-3.1-8B"),
    ("Llama-3.1-70B-Instruct", "Llama-3.1-70B"),
    ("llama3.1:70b", "Llama-3.1-70B"),
    ("Llama 3.2 3B", "Llama-3.2-3B"),
    ("Llama-3.3-70B-Instruct", "Llama-3.3-70B"),
    ("Llama-4-Scout-17B-16E", "Llama-4-Scout"),
    ("Llama 4 Maverick", "Llama-4-Maverick"),
    ("CodeLlama-34b-Instruct-hf", "CodeLlama-34B"),
    ("Qwen-7B-Chat", "Qwen-7B"),
    ("Qwen1.5-7B-Chat", "Qwen1.5-7B"),
    ("Qwen1.5-MoE-A2.7B", "Qwen1.5-MoE-A2.7B"),
    ("Qwen2-7B-Instruct", "Qwen2-7B"),
    ("qwen2_7b", "Qwen2-7B"),
    ("Qwen2-57B-A14B", "Qwen2-57B-A14B"),
    ("Qwen2.5-72B-Instruct-AWQ", "Qwen2.5-72B"),
    ("Qwen/Qwen2.5-7B-Instruct", "Qwen2.5-7B"),
    ("qwen2.5:7b", "Qwen2.5-7B"),
    ("Qwen2.5-Coder-32B", "Qwen2.5-Coder-32B"),
    ("Qwen2.5-VL-7B", "Qwen2.5-VL-7B"),
    ("Qwen3-8B", "Qwen3-8B"),
    ("Qwen3-30B-A3B", "Qwen3-30B-A3B"),
    ("Qwen3-235B-A22B", "Qwen3-235B-A22B"),
    ("Qwen3-Next-80B-A3B", "Qwen3-Next-80B-A3B"),
    ("QwQ-32B", "QwQ-32B"),
    ("DeepSeek-V3", "DeepSeek-V3"),
    ("DeepSeek-V3-0324", "DeepSeek-V3"),
    ("DeepSeek-R1", "DeepSeek-R1"),
    ("DeepSeek R1", "DeepSeek-R1"),
    ("DeepSeek-V2-Lite", "DeepSeek-V2-Lite"),
    ("DeepSeek-R1-Distill-Qwen-7B", "DeepSeek-R1-Distill-Qwen-7B"),
    ("deepseek-coder-6.7b-instruct", "DeepSeek-Coder-6.7B"),
    ("Mistral-7B-Instruct-v0.2", "Mistral-7B"),
    ("Mistral 7B", "Mistral-7B"),
    ("Mixtral-8x7B-Instruct-v0.1", "Mixtral-8x7B"),
    ("Mixtral 8x22B", "Mixtral-8x22B"),
    ("gemma-2-9b-it", "Gemma-2-9B"),
    ("Gemma-7B", "Gemma-7B"),
    ("gemma-3-27b-it", "Gemma-3-27B"),
    ("Phi-2", "Phi-2"),
    ("phi-1_5", "Phi-1.5"),
    ("Phi-3-mini-4k-instruct", "Phi-3-mini"),
    ("Phi-3.5-mini-instruct", "Phi-3.5-mini"),
    ("Phi-4", "Phi-4"),
    ("Yi-34B-Chat", "Yi-34B"),
    ("Yi-1.5-9B", "Yi-1.5-9B"),
    ("Baichuan2-13B-Chat", "Baichuan2-13B"),
    ("Baichuan-7B", "Baichuan-7B"),
    ("baichuan2_13b", "Baichuan2-13B"),
    ("InternLM2-Chat-7B", "InternLM2-7B"),
    ("internlm2_5-7b-chat", "InternLM2.5-7B"),
    ("InternLM3-8B-Instruct", "InternLM3-8B"),
    ("ChatGLM-6B", "ChatGLM-6B"),
    ("chatglm2-6b", "ChatGLM2-6B"),
    ("chatglm2_6b", "ChatGLM2-6B"),
    ("ChatGLM3-6B", "ChatGLM3-6B"),
    ("glm-4-9b-chat", "GLM-4-9B"),
    ("GLM-4.5-Air", "GLM-4.5-Air"),
    ("MiniCPM-2B", "MiniCPM-2B"),
    ("MiniCPM-V-2_6", "MiniCPM-V 2.6"),
    ("MiniCPM3-4B", "MiniCPM3-4B"),
    ("Falcon-7B", "Falcon-7B"),
    ("falcon-40b-instruct", "Falcon-40B"),
    ("OPT-13B", "OPT-13B"),
    ("facebook/opt-125m", "OPT-125M"),
    ("OPT-66B", "OPT-66B"),
    ("BLOOM-176B", "BLOOM-176B"),
    ("bloom-7b1", "BLOOM-7B1"),
    ("GPT-2", "GPT-2"),
    ("gpt2", "GPT-2"),
    ("GPT2-XL", "GPT-2-XL"),
    ("GPT-J-6B", "GPT-J-6B"),
    ("GPT-NeoX-20B", "GPT-NeoX-20B"),
    ("Vicuna-13B", "Vicuna-13B"),
    ("vicuna-7b-v1.5", "Vicuna-7B"),
    ("lmsys/vicuna-13b-v1.3", "Vicuna-13B"),
    ("StarCoder", "StarCoder"),
    ("starcoder2-15b", "StarCoder2-15B"),
    ("TinyLlama-1.1B", "TinyLlama-1.1B"),
    ("gpt-oss-120b", "gpt-oss-120b"),
    ("gpt-oss:20b", "gpt-oss-20b"),
    ("Kimi-K2", "Kimi-K2"),
    ("Stable Diffusion 1.5", "SD1.5"),
    ("SD 1.5", "SD1.5"),
    ("SD1.5", "SD1.5"),
    ("runwayml/stable-diffusion-v1-5", "SD1.5"),
    ("stable-diffusion-2-1", "SD2.1"),
    ("SD 2.1", "SD2.1"),
    ("SDXL", "SDXL"),
    ("stable-diffusion-xl-base-1.0", "SDXL"),
    ("SDXL-Turbo", "SDXL-Turbo"),
    ("SD3", "SD3"),
    ("SD3.5 Large", "SD3.5-Large"),
    ("stable-diffusion-3.5-large", "SD3.5-Large"),
    ("FLUX.1-dev", "FLUX.1-dev"),
    ("FLUX.1-schnell", "FLUX.1-schnell"),
    ("FLUX.1 [dev]", "FLUX.1-dev"),
    ("black-forest-labs/FLUX.1-dev", "FLUX.1-dev"),
    ("Wan2.1", "Wan2.1"),
    ("Wan2.1-T2V-14B", "Wan2.1-T2V-14B"),
    ("Wan2.1-I2V-14B-720P", "Wan2.1-I2V-14B"),
    ("Wan2.2-T2V-A14B", "Wan2.2-T2V-A14B"),
    ("Wan 2.1", "Wan2.1"),
    ("HunyuanVideo", "HunyuanVideo"),
    ("CogVideoX-5B", "CogVideoX-5B"),
    ("CogVideoX-2b", "CogVideoX-2B"),
    ("Whisper large-v3", "Whisper-large-v3"),
    ("whisper-large-v3", "Whisper-large-v3"),
    ("whisper-small", "Whisper-small"),
    ("BERT-base", "BERT-base"),
    ("bert-base-uncased", "BERT-base"),
    ("BERT-Large", "BERT-large"),
    ("ResNet-50", "ResNet-50"),
    ("ResNet50", "ResNet50"),
    ("resnet18", "ResNet18"),
    ("YOLOv5s", "YOLOv5s"),
    ("YOLOv8n", "YOLOv8n"),
    ("yolov8s", "YOLOv8s"),
    ("YOLO11n", "YOLO11n"),
    ("MobileNetV2", "MobileNetV2"),
    ("ViT-B/16", "ViT-B/16"),
]


def _hardware_pages(name: str) -> list[tuple[str, str]]:
    """(context, page) pairs that name one part for the number `VALUE`."""
    v = f"{VALUE:g}"
    table = f"| batch | tokens/s |\n|---|---|\n| 1 | {v} |\n"
    return [
        ("sentence", f"We reach {v} tokens/s on {name}.\n"),
        ("sentence-single", f"On a single {name}, decoding runs at {v} tokens/s.\n"),
        ("counted-x", f"With 8x {name} the server reaches {v} tokens/s.\n"),
        ("zh-on", f"在{name}上，吞吐达到 {v} tokens/s。\n"),
        ("zh-single", f"单卡{name}吞吐为 {v} tokens/s。\n"),
        ("zh-cards", f"使用 8 卡 {name}，吞吐为 {v} tokens/s。\n"),
        ("zh-two", f"两张{name}的吞吐为 {v} tokens/s。\n"),
        ("row", f"| GPU | tokens/s |\n|---|---|\n| {name} | {v} |\n"),
        (
            "row-hardware",
            f"| Hardware | Model | tokens/s |\n|---|---|---|\n| {name} | Llama-2-7B | {v} |\n",
        ),
        ("column", f"| Model | {name} |\n|---|---|\n| Llama-2-7B | {v} |\n"),
        ("column-unit", f"| Model | {name} (tokens/s) |\n|---|---|\n| Llama-2-7B | {v} |\n"),
        ("setup", f"Hardware: {name}\n\n{table}"),
        ("setup-gpu", f"GPU: {name}\n\n{table}"),
        ("setup-all", f"All results are measured on {name}.\n\n{table}"),
        ("setup-zh", f"测试环境：{name}\n\n{table}"),
        ("setup-zh-hw", f"硬件配置：{name}\n\n{table}"),
        ("heading", f"## {name}\n\n{table}"),
        ("heading-results", f"### Results on {name}\n\n{table}"),
        ("caption", f"Table 2: Throughput on {name}.\n\n{table}"),
        ("note-below", f"{table}\n*Measured on {name}.*\n"),
        ("obtained", f"The following results were obtained on 8 {name} GPUs.\n\n{table}"),
        ("bullet", f"- **GPU**: {name} x 8\n- **CUDA**: 12.4\n\n{table}"),
        ("setup-zh-model", f"显卡型号：{name}\n\n{table}"),
        ("setup-zh-machine", f"测试机器：{name}*8\n\n{table}"),
        ("column-counted", f"| Model | 8x {name} |\n|---|---|\n| Llama-2-7B | {v} |\n"),
        ("column-tp", f"| Model | {name} (TP=2) |\n|---|---|\n| Llama-2-7B | {v} |\n"),
        ("row-counted", f"| Setup | tokens/s |\n|---|---|\n| 2 x {name} | {v} |\n"),
        (
            "header-metric-rows",
            f"| Metric | {name} | Other |\n|---|---|---|\n| Throughput (tok/s) | {v} | 1 |\n",
        ),
        ("smi", f"```\nGPU 0: {name} (UUID: GPU-1234)\n```\n\n{table}"),
        ("collect-env", f"```\nGPU models and configuration:\nGPU 0: {name}\n```\n\n{table}"),
        ("quote", f"> Tested on {name}.\n\n{table}"),
        ("details", f"<details>\n<summary>{name}</summary>\n\n{table}\n</details>\n"),
        ("html-heading", f"<h3>{name}</h3>\n\n{table}"),
        ("image-alt", f"![Throughput on {name}](bench.png)\n\n{table}"),
        ("bold-line", f"**{name}**\n\n{table}"),
        (
            "html-table",
            f"<table><tr><th>GPU</th><th>tokens/s</th></tr>\n<tr><td>{name}</td><td>{v}</td></tr></table>\n",
        ),
        (
            "html-column",
            f"<table><tr><th>Model</th><th>{name}</th></tr>\n<tr><td>Llama-2-7B</td><td>{v}</td></tr></table>\n",
        ),
        ("list-result", f"- {name}: {v} tokens/s\n"),
        ("colon-zh", f"{name}：{v} tokens/s\n"),
    ]


def _model_pages(name: str) -> list[tuple[str, str]]:
    """(context, page) pairs that name one model for the number `VALUE`."""
    v = f"{VALUE:g}"
    table = f"| batch | tokens/s |\n|---|---|\n| 1 | {v} |\n"
    return [
        ("sentence", f"{name} decodes at {v} tokens/s on an A100.\n"),
        ("sentence-with", f"We reach {v} tokens/s with {name}.\n"),
        ("zh", f"{name} 在 A100 上的吞吐为 {v} tokens/s。\n"),
        ("row", f"| Model | tokens/s |\n|---|---|\n| {name} | {v} |\n"),
        ("row-zh", f"| 模型 | 吞吐 (tokens/s) |\n|---|---|\n| {name} | {v} |\n"),
        (
            "row-continued",
            f"| Model | batch | tokens/s |\n|---|---|---|\n| {name} | 1 | 99 |\n|  | 8 | {v} |\n",
        ),
        ("column", f"| batch | {name} |\n|---|---|\n| 1 | {v} |\n"),
        ("setup", f"Model: {name}\n\n{table}"),
        ("setup-zh", f"模型：{name}\n\n{table}"),
        ("heading", f"### {name}\n\n{table}"),
        ("caption", f"Table 3: Throughput of {name} on A100.\n\n{table}"),
        ("heading-precision", f"### {name} (fp16)\n\n{table}"),
        ("results-for", f"Results for {name}:\n\n{table}"),
        ("bullet", f"- **Model**: {name}\n- **Precision**: bf16\n\n{table}"),
        ("setup-zh-test", f"测试模型：{name}\n\n{table}"),
        ("group-row", f"| Batch | tokens/s |\n|---|---|\n| **{name}** | |\n| 1 | {v} |\n"),
        ("column-rows", f"| Precision | {name} |\n|---|---|\n| FP16 | {v} |\n"),
        ("hf-link", f"Model: [{name}](https://huggingface.co/org/{name})\n\n{table}"),
        ("command", f"```bash\nvllm bench serve --model {name} --num-prompts 100\n```\n\n{table}"),
        ("command-m", f"```\n./llama-bench -m models/{name} -p 512\n```\n\n{table}"),
    ]


def _scored(field: str, gold: str, page: str) -> tuple[bool, list[str]]:
    """Whether the number's extracted condition matches `gold`, and what was extracted."""
    got: list[str] = []
    for claim in extract_claims(page):
        if any(abs(m.value - VALUE) < 1e-9 for m in claim.metrics):
            got.extend(getattr(claim.conditions, field))
    right = any(name_matches(field, g, p) for g in gold.split("/") for p in got)
    return right, got


def run(field: str, verbose: bool) -> None:
    cases = HARDWARE if field == "hardware" else MODELS
    pages = _hardware_pages if field == "hardware" else _model_pages
    hits: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    names_ok = 0
    for spelling, gold in cases:
        misses = []
        for context, page in pages(spelling):
            right, got = _scored(field, gold, page)
            totals[context] += 1
            hits[context] += right
            if not right:
                misses.append(f"{context} -> {got}")
        names_ok += not misses
        if verbose and misses:
            print(f"  {field} {spelling!r} (want {gold}): " + "; ".join(misses))
    total = sum(totals.values())
    print(
        f"{field:9} {sum(hits.values()) / total:.3f} of {total} pages; "
        f"{names_ok}/{len(cases)} spellings read in every context"
    )
    for context in totals:
        print(f"  {context:16} {hits[context] / totals[context]:.3f}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list each spelling's misses")
    parser.add_argument("--field", choices=("hardware", "model"), action="append")
    args = parser.parse_args(argv)
    for field in args.field or ["hardware", "model"]:
        run(field, args.verbose)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
